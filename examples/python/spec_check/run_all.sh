#!/bin/sh
# spec_check (see README.md): reproduce every sync_offer / signin / device_list vector that needs no AES-GCM and no signature.
set -e
cd "$(dirname "$0")"
echo "== sync_offer";  python3 sync_offer.py
echo "== signin";      python3 signin.py
echo "== device_list"; python3 device_list.py
echo "== alternative readings"; python3 alternatives.py
