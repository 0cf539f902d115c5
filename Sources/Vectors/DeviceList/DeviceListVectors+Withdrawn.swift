/// The `device_list` cases withdrawn by issue 26 (SPEC.md §2.1, §10.1), and their replacements.
///
/// Until then the suite filled bundle bytes 32–1247 with HKDF placeholders, so its ML-KEM-768 keys
/// held 12-bit coefficients ≥ q, which Haven's `ml-kem` round trip rewrites: for those bundles Haven
/// signs, writes and decodes other bytes than the vectors said. Every identity now carries real
/// X25519 and ML-KEM-768 keys (§10.1), which changes the bytes of every case below. The wire
/// layouts did not change, so the wire version stays 1 and, as §2.1 requires of a changed case
/// under an unchanged version, each old id is withdrawn with its reason and the case is added
/// again as `<old id>-real-kem`, with the same rules, flags and comment.
extension DeviceListVectors {
    static let realKEMSuffix = "-real-kem"

    /// The ids (after `device_list/`) whose input or expected output held a placeholder key's bytes.
    static let kemPlaceholderCases: [String] = [
        "derive_identity/seed/zero",
        "derive_identity/seed/ff",
        "derive_identity/seed/account-a",
        "derive_identity/seed/account-b",
        "derive_identity/seed/device-1",
        "credential_issue/issue/iphone",
        "credential_issue/issue/empty-name",
        "credential_issue/issue/unicode-name",
        "credential_issue/issue/bundle-3199-bytes",
        "credential_issue/issue/bundle-ed25519-not-a-point",
        "credential_decode/wire/iphone",
        "credential_decode/wire/empty-name",
        "credential_decode/wire/unicode-name",
        "credential_decode/truncated/in-bundle",
        "credential_decode/truncated/no-signature",
        "credential_decode/count/name-len-max",
        "credential_decode/count/bundle-len-max",
        "credential_decode/bundle/len-3199",
        "credential_decode/name/invalid-utf8",
        "credential_decode/wire/one-byte-signature",
        "credential_verify/valid/iphone",
        "credential_verify/valid/empty-name",
        "credential_verify/valid/unicode-name",
        "credential_verify/tamper/account-id",
        "credential_verify/tamper/created-at",
        "credential_verify/tamper/name",
        "credential_verify/tamper/bundle-x25519",
        "credential_verify/tamper/bundle-mlkem",
        "credential_verify/tamper/bundle-mldsa",
        "credential_verify/account/wrong-pinned",
        "credential_verify/signature/ed25519-half",
        "credential_verify/signature/mldsa-half",
        "credential_verify/signature/both-halves",
        "credential_verify/signature/one-byte-short",
        "credential_verify/signature/one-byte-long",
        "credential_verify/signature/ed25519-only",
        "credential_verify/pinned/not-a-bundle",
        "credential_verify/truncated/in-bundle",
        "credential_verify/order/truncated-wire-bad-pinned",
        "list_verify/valid/two-devices",
        "list_verify/valid/empty",
        "list_verify/valid/with-revoked",
        "list_verify/valid/retired",
        "list_verify/valid/extremes",
        "list_verify/tamper/account-id",
        "list_verify/tamper/version",
        "list_verify/tamper/updated-at",
        "list_verify/tamper/device-id",
        "list_verify/tamper/revoked-id",
        "list_verify/tamper/device-order",
        "list_verify/tamper/unrevoke",
        "list_verify/account/wrong-pinned",
        "list_verify/signature/ed25519-half",
        "list_verify/signature/mldsa-half",
        "list_verify/signature/one-byte-short",
        "list_verify/retired/flag-added",
        "list_verify/retired/flag-stripped",
        "list_verify/hvnleaf1/forced-tail",
        "list_verify/hvnleaf1/forced-tail-full-length",
        "list_verify/truncated/in-device-ids",
        "list_verify/order/truncated-wire-bad-pinned",
        "credential_verify/sig-edge/ed25519-control",
        "credential_verify/sig-edge/ed25519-s-plus-l",
        "credential_verify/sig-edge/ed25519-s-plus-2l",
        "credential_verify/sig-edge/ed25519-s-equals-l",
        "credential_verify/sig-edge/ed25519-small-order-a-s-zero",
        "credential_verify/sig-edge/ed25519-small-order-a",
        "credential_verify/sig-edge/ed25519-small-order-r",
        "credential_verify/sig-edge/ed25519-mixed-order-a",
        "credential_verify/sig-edge/ed25519-cofactored-only-mixed-a",
        "credential_verify/sig-edge/ed25519-cofactored-only-mixed-r",
        "credential_verify/sig-edge/ed25519-non-canonical-a-y",
        "credential_verify/sig-edge/ed25519-non-canonical-a-minus-zero",
        "credential_verify/sig-edge/ed25519-non-canonical-r-y",
        "credential_verify/sig-edge/ed25519-non-canonical-r-minus-zero",
        "credential_verify/sig-edge/ed25519-r-not-a-point",
        "credential_verify/sig-edge/mldsa-short",
        "credential_verify/sig-edge/mldsa-long",
        "credential_verify/sig-edge/mldsa-hint-count-over-omega",
        "credential_verify/sig-edge/mldsa-hint-count-ff",
        "credential_verify/sig-edge/mldsa-hint-count-decreasing",
        "credential_verify/sig-edge/mldsa-hint-unsorted",
        "credential_verify/sig-edge/mldsa-hint-repeated",
        "credential_verify/sig-edge/mldsa-hint-padding",
        "credential_verify/sig-edge/mldsa-z-out-of-range",
        "credential_verify/sig-edge/mldsa-c-tilde-flipped",
        "credential_verify/sig-edge/mldsa-other-message",
        "credential_verify/sig-edge/both-s-plus-l-and-hint-unsorted",
        "credential_verify/sig-edge/both-cofactored-only-mixed-r-and-z-out-of-range",
        "list_verify/sig-edge/ed25519-control",
        "list_verify/sig-edge/ed25519-s-plus-l",
        "list_verify/sig-edge/ed25519-s-plus-2l",
        "list_verify/sig-edge/ed25519-s-equals-l",
        "list_verify/sig-edge/ed25519-small-order-a-s-zero",
        "list_verify/sig-edge/ed25519-small-order-a",
        "list_verify/sig-edge/ed25519-small-order-r",
        "list_verify/sig-edge/ed25519-mixed-order-a",
        "list_verify/sig-edge/ed25519-cofactored-only-mixed-a",
        "list_verify/sig-edge/ed25519-cofactored-only-mixed-r",
        "list_verify/sig-edge/ed25519-non-canonical-a-y",
        "list_verify/sig-edge/ed25519-non-canonical-a-minus-zero",
        "list_verify/sig-edge/ed25519-non-canonical-r-y",
        "list_verify/sig-edge/ed25519-non-canonical-r-minus-zero",
        "list_verify/sig-edge/ed25519-r-not-a-point",
        "list_verify/sig-edge/mldsa-short",
        "list_verify/sig-edge/mldsa-long",
        "list_verify/sig-edge/mldsa-hint-count-over-omega",
        "list_verify/sig-edge/mldsa-hint-count-ff",
        "list_verify/sig-edge/mldsa-hint-count-decreasing",
        "list_verify/sig-edge/mldsa-hint-unsorted",
        "list_verify/sig-edge/mldsa-hint-repeated",
        "list_verify/sig-edge/mldsa-hint-padding",
        "list_verify/sig-edge/mldsa-z-out-of-range",
        "list_verify/sig-edge/mldsa-c-tilde-flipped",
        "list_verify/sig-edge/mldsa-other-message",
        "list_verify/sig-edge/both-s-plus-l-and-hint-unsorted",
        "list_verify/sig-edge/both-cofactored-only-mixed-r-and-z-out-of-range",
        "credential_issue/sig-edge/bundle-ed25519-alias-y-large-order",
        "credential_issue/sig-edge/bundle-ed25519-alias-minus-zero",
        "credential_issue/issue/name-nfc",
        "credential_issue/issue/name-nfd",
        "credential_issue/issue/name-nul",
        "credential_issue/issue/name-256-bytes",
        "credential_issue/issue/created-at-max",
        "credential_issue/issue/created-at-2-53-plus-1",
        "credential_issue/issue/bundle-ed25519-off-curve",
        "credential_issue/issue/bundle-3201-bytes",
        "credential_decode/wire/name-nfd",
        "credential_decode/wire/name-nul",
        "credential_decode/wire/name-65536-bytes",
        "credential_decode/name/overlong-nul",
        "credential_decode/name/surrogate",
        "credential_decode/name/above-10ffff",
        "credential_decode/name/lone-continuation",
        "credential_decode/name/truncated-sequence",
        "credential_decode/count/name-len-2-31",
        "credential_decode/count/bundle-len-2-31",
        "credential_decode/bundle/len-0",
        "credential_decode/bundle/len-3201",
        "credential_decode/order/bad-name-before-truncated-bundle",
        "credential_verify/signature/short-and-ed25519-bad",
        "credential_verify/signature/65-bytes",
        "credential_verify/signature/64-bytes-ed25519-bad",
        "credential_verify/signature/one-byte",
        "credential_verify/order/wire-hex-before-pinned",
        "credential_verify/valid/uppercase-hex",
        "list_verify/valid/duplicate-ids",
        "list_verify/order/account-before-signature",
    ]

    /// Renames every listed case to its replacement id and returns the withdrawn entries. Runs
    /// after `finish`, so the rule table stays keyed by the ids the generators use; fails if a
    /// listed id is no longer generated (the list must name real cases, not old guesses).
    static func replaceKEMPlaceholderCases(_ b: inout Builder) throws -> [WithdrawnCase] {
        let listed = Set(kemPlaceholderCases)
        try check(listed.count == kemPlaceholderCases.count, "kemPlaceholderCases holds an id twice")
        var renamed = Set<String>()
        for i in b.cases.indices {
            let key = String(b.cases[i].id.dropFirst("device_list/".count))
            guard listed.contains(key) else { continue }
            b.cases[i].id += realKEMSuffix
            renamed.insert(key)
        }
        // Ids issue 23 withdrew in turn (`Issue23Withdrawals`) are no longer generated.
        let retired = Set(Issue23Withdrawals.entries("device_list").map { String($0.id.dropFirst("device_list/".count).dropLast(realKEMSuffix.count)) })
        try check(renamed == listed.subtracting(retired), "kemPlaceholderCases names ids no generator makes: \(listed.subtracting(renamed).subtracting(retired).sorted())")
        return kemPlaceholderCases.map { key in
            WithdrawnCase(id: "device_list/\(key)",
                          reason: "issue 26: its bundles' X25519 and ML-KEM-768 parts were HKDF placeholders (coefficients ≥ q, which Haven's ml-kem round trip rewrites); replaced by device_list/\(key)\(realKEMSuffix), the same case with real keys (SPEC.md §10.1)")
        }
    }
}
