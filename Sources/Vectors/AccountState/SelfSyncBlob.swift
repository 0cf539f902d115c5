import Primitives

/// The sealed self-sync blob (SPEC.md §11.1, §11.5), Haven's `AccountState::seal` (v0) and
/// `seal_epoch` (v1, `HSS1`) layouts and its dual-key `open_any`:
///
///     v0: salt(16) ‖ nonce(12) ‖ AES-256-GCM ciphertext ‖ tag(16)
///     v1: "HSS1" ‖ epoch u64 LE ‖ salt(16) ‖ nonce(12) ‖ ciphertext ‖ tag(16)
///
/// The AEAD key is a per-blob subkey, HKDF-SHA256(salt = the blob's salt, IKM = the self-sync key,
/// info "haven-selfsync-msg-v1"); the AAD is empty, so the v1 header is not authenticated.
public enum SelfSyncBlob {
    public static let magic = Array("HSS1".utf8)
    public static let keySalt = Array("haven-selfsync-v1".utf8)
    public static let keyInfo = Array("state-key".utf8)
    public static let subkeyInfo = Array("haven-selfsync-msg-v1".utf8)
    public static let saltByteCount = 16
    public static let nonceByteCount = 12
    public static let tagByteCount = 16
    /// salt ‖ nonce ‖ tag: a v0 blob of the empty plaintext would be 44 bytes (the empty state is 8).
    public static let v0Overhead = 16 + 12 + 16
    /// magic ‖ epoch ‖ salt: what `peek_epoch` needs before it reads a v1 header.
    public static let v1HeaderByteCount = 4 + 8 + 16
    public static let v1Overhead = 4 + 8 + v0Overhead

    /// The account's self-sync key from its 32-byte master seed ([R11.1-1]).
    public static func selfSyncKey(seed: [UInt8]) -> [UInt8] {
        hkdf(ikm: seed, salt: keySalt, info: keyInfo)
    }

    /// The per-blob AEAD key ([R11.1-2]). The seam of the salt-not-used mutant.
    public static func subkey(key: [UInt8], salt: [UInt8]) -> [UInt8] {
        hkdf(ikm: key, salt: Mutant.on(.accountSubkeyIgnoresSalt) ? [] : salt, info: subkeyInfo)
    }

    static func hkdf(ikm: [UInt8], salt: [UInt8], info: [UInt8]) -> [UInt8] {
        // 32 bytes out of HKDF-SHA256 cannot fail.
        (try? HKDFSHA256.deriveKey(inputKeyMaterial: ikm, salt: salt, info: info, outputByteCount: 32)) ?? []
    }

    /// Seals a state ([R11.5-1], [R11.5-2]): v0 when `epoch` is nil, else v1 with that epoch.
    /// `salt` and `nonce` must be fresh random values per blob; vectors pass fixed ones.
    public static func seal(_ state: AccountState, key: [UInt8], salt: [UInt8], nonce: [UInt8], epoch: UInt64?) throws(WireError) -> [UInt8] {
        guard key.count == 32 else { throw WireError(.inputBadLength, "a self-sync key is 32 bytes", field: "key") }
        guard salt.count == saltByteCount else { throw WireError(.inputBadLength, "a salt is 16 bytes", field: "salt") }
        guard nonce.count == nonceByteCount else { throw WireError(.inputBadLength, "a nonce is 12 bytes", field: "nonce") }
        let sub = subkey(key: key, salt: salt)
        let header = epoch.map { e -> [UInt8] in var h = magic; h.appendLE(e); return h } ?? []
        let aad = Mutant.on(.accountHeaderAuthenticated) ? header : []
        let sealed: (ciphertext: [UInt8], tag: [UInt8])
        do { sealed = try AES256GCM.seal(state.encoded, key: sub, nonce: nonce, authenticating: aad) } catch {
            throw WireError(.inputBadValue, "AES-256-GCM refused: \(error)", field: "state")
        }
        return header + salt + nonce + sealed.ciphertext + sealed.tag
    }

    /// The key epoch of a v1 blob, nil for anything else ([R11.5-3]): 28 bytes or more that start
    /// with `HSS1`.
    public static func peekEpoch(_ blob: [UInt8]) -> UInt64? {
        guard blob.count >= v1HeaderByteCount, Array(blob.prefix(4)) == magic else { return nil }
        return blob[4..<12].reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// What `open` found.
    public struct Opened: Sendable, Equatable {
        /// 0 for a blob opened under the seed-derived key (v0 layout), 1 for a v1 blob.
        public var version: UInt64
        /// The v1 header's epoch; nil for v0.
        public var epoch: UInt64?
        public var state: AccountState
    }

    /// AES-256-GCM open of `salt ‖ nonce ‖ ct ‖ tag` (the v0 layout, and a v1 blob after its
    /// 12-byte header). nil when the tag does not verify or the bytes are too few.
    static func openSealed(_ body: ArraySlice<UInt8>, key: [UInt8], aad: [UInt8] = []) -> [UInt8]? {
        guard body.count >= v0Overhead else { return nil }
        let s = body.startIndex
        let salt = Array(body[s..<s + 16]), nonce = Array(body[s + 16..<s + 28])
        let ct = Array(body[(s + 28)..<(body.endIndex - 16)]), tag = Array(body[(body.endIndex - 16)...])
        return try? AES256GCM.open(ciphertext: ct, tag: tag, key: subkey(key: key, salt: salt), nonce: nonce, authenticating: aad)
    }

    /// Haven's dual-key reader ([R11.5-4 order]…[R11.5-9]).
    ///
    /// `accepted` maps the key epochs this reader honours to their keys; `seedKey` is the
    /// seed-derived key, nil once v0 authority is retired.
    public static func open(_ blob: [UInt8], seedKey: [UInt8]?, accepted: [(epoch: UInt64, key: [UInt8])]) throws(WireError) -> Opened {
        if let epoch = peekEpoch(blob) {
            // A v1 candidate. Its failure is what is reported unless the v0 fallback opens.
            let failure: WireError
            let key = accepted.first { $0.epoch == epoch }?.key
                ?? (Mutant.on(.accountEpochNotChecked) ? accepted.first?.key : nil)
            if let key {
                if blob.count < v1Overhead {
                    failure = WireError(.accountStateBlobTruncated, "a v1 blob is at least \(v1Overhead) bytes, got \(blob.count)", field: "blob")
                } else if let plain = openSealed(blob[12...], key: key, aad: Mutant.on(.accountHeaderAuthenticated) ? Array(blob.prefix(12)) : []) {
                    // The AEAD accepted it: a decoding failure is final (no fallback).
                    return Opened(version: 1, epoch: epoch, state: try AccountState.decode(plain))
                } else {
                    failure = WireError(.accountStateAuthFailed, "the tag does not verify under epoch \(epoch)'s key", field: "blob")
                }
            } else {
                failure = WireError(.accountStateStaleEpoch, "key epoch \(epoch) is not accepted", field: "blob")
            }
            if let seedKey, !Mutant.on(.accountNoV0Fallback), let plain = openSealed(blob[...], key: seedKey) {
                return Opened(version: 0, epoch: nil, state: try AccountState.decode(plain))
            }
            throw failure
        }
        guard let seedKey else {
            throw WireError(.accountStateV0Retired, "a v0 blob needs the seed-derived key, and v0 authority is retired", field: "seed_key")
        }
        guard blob.count >= v0Overhead else {
            throw WireError(.accountStateBlobTruncated, "a v0 blob is at least \(v0Overhead) bytes, got \(blob.count)", field: "blob")
        }
        guard let plain = openSealed(blob[...], key: seedKey) else {
            throw WireError(.accountStateAuthFailed, "the tag does not verify under the seed-derived key", field: "blob")
        }
        return Opened(version: 0, epoch: nil, state: try AccountState.decode(plain))
    }
}
