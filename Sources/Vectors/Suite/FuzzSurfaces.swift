import Primitives

/// The decoding surfaces of the wire formats (issue 27), in a stable order: the §1 CBOR reader,
/// then each format's own. A new format adds its
/// `<Format>FuzzSurfaces.all` here; the Conformance target's `ConformanceFuzzSurfaces.all` adds the
/// runner-facing ones (the op-input layer as `serve` reads a line, the HTTP request parser, the
/// runner's reading of testee lines), and `Fuzz/` builds a target per entry of that list.
public enum FuzzSurfaces {
    public static var all: [FuzzSurface] {
        [cbor]
            + StateDigestFuzzSurfaces.all + ReconcileFuzzSurfaces.all + SyncOfferFuzzSurfaces.all + SignInFuzzSurfaces.all
            + DeviceListFuzzSurfaces.all + AccountStateFuzzSurfaces.all + SettleFuzzSurfaces.all + EnvelopeFuzzSurfaces.all
    }

    public static func named(_ name: String) -> FuzzSurface? { all.first { $0.name == name } }

    /// The §1 reader is strict (RFC 8949 §4.2.1 core deterministic encoding, no indefinite
    /// lengths, no duplicate keys, depth-capped), so the writer must give back exactly the bytes
    /// of anything it accepts, and a rejection is a `cbor_*` code. Seeds: every byte string of
    /// every CBOR-carrying op input.
    public static let cbor = FuzzSurface(
        name: "cbor", summary: "the §1 CBOR reader: what decodes re-encodes to the same bytes; a rejection is a cbor_* code",
        seedFormats: ["state_digest", "sync_offer", "signin", "account_state", "envelope"], seedSyntax: .cbor,
        seed: { c in
            guard let o = c.input.json.objectValue else { return nil }
            for (k, v) in o where ["cbor", "cert", "encoded", "plaintext"].contains(k) {
                if let s = v.stringValue, let b = Hex.decode(s), !b.isEmpty { return b }
            }
            return nil
        },
        check: { bytes in
            let value: CBOR
            do throws(WireError) { value = try CBORReader.decode(bytes) } catch {
                return error.code.rawValue.hasPrefix("cbor_") ? nil : "a CBOR rejection carries \(error.code.rawValue), not a cbor_* code: \(error)"
            }
            let again = CBORWriter.encode(value)
            return again == bytes ? nil : "the reader accepted a non-deterministic encoding: the writer gives \(again.count) byte(s) for the \(bytes.count) read"
        })
}
