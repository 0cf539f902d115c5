"""pixie: a second reference implementation of the Pixie wire formats, written from SPEC.md.

One module per format; `FORMATS` lists the ones that pass every vector of their format, and is
what `pixie_testee.py` advertises (SPEC §6.2).
"""
from . import (account_state, device_list, envelope, pairing, reconcile, revocation, settle, signin, state_digest,
               sync_offer)

FORMATS = {
    "state_digest": state_digest.OPS,
    "reconcile": reconcile.OPS,
    "settle": settle.OPS,
    "sync_offer": sync_offer.OPS,
    "signin": signin.OPS,
    "account_state": account_state.OPS,
    "device_list": device_list.OPS,
    "envelope": envelope.OPS,
    "pairing": pairing.OPS,
    "revocation": revocation.OPS,
}
