/// The suite's error vocabulary: one list shared by SPEC.md, the negative vectors, the runner
/// protocol and this implementation. A raw value is never renamed or reused; a withdrawn code
/// stays listed in SPEC.md with the reason.
public enum ErrorCode: String, Sendable, Hashable, CaseIterable, Codable {
    // CBOR (RFC 8949 §4.2.1 core deterministic encoding, read strictly)
    case cborTruncated = "cbor_truncated"
    case cborNonCanonical = "cbor_non_canonical"
    case cborIndefiniteLength = "cbor_indefinite_length"
    case cborReservedInfo = "cbor_reserved_additional_info"
    case cborInvalidSimple = "cbor_invalid_simple"
    case cborDuplicateMapKey = "cbor_duplicate_map_key"
    case cborUnsortedMapKeys = "cbor_unsorted_map_keys"
    case cborInvalidUTF8 = "cbor_invalid_utf8"
    case cborTrailingBytes = "cbor_trailing_bytes"
    case cborDepthExceeded = "cbor_depth_exceeded"

    // Structured input (vector `input` objects and runner case inputs)
    case inputMissingField = "input_missing_field"
    case inputBadType = "input_bad_type"
    case inputBadLength = "input_bad_length"
    case inputBadValue = "input_bad_value"
    case unknownNamespace = "unknown_namespace"
    case unknownOp = "unknown_op"
    case unknownField = "input_unknown_field"
    case duplicateKey = "duplicate_key"

    // StateDigest v6
    case digestWrongLength = "digest_wrong_length"
    case digestUnsupportedVersion = "digest_unsupported_version"
    case notebookOffloadHashMismatch = "notebook_offload_hash_mismatch"
    case notebookOffloadedWithoutHash = "notebook_offloaded_without_hash"

    // reconcile_req / reconcile_resp frames
    case frameInvalidJSON = "frame_invalid_json"
    case frameUnknownKind = "frame_unknown_kind"
    case frameMissingField = "frame_missing_field"
    case frameBadType = "frame_bad_type"
    case frameNotTiling = "frame_not_tiling"
    case frameNegativeCount = "frame_negative_count"
    case frameBadRootLength = "frame_bad_root_length"
    case frameTooManyBuckets = "frame_too_many_buckets"

    // sync_offer codes go here (one block, added by the sync_offer work)

    // signin codes go here (one block)

    // device_list codes go here (one block)
    case deviceListTruncated = "device_list_truncated"
    case deviceListMissingSignature = "device_list_missing_signature"
    case deviceListBadName = "device_list_bad_name"
    case deviceListBadBundle = "device_list_bad_bundle"
    case deviceListAccountMismatch = "device_list_account_mismatch"
    case deviceListSigWrongLength = "device_list_sig_wrong_length"
    case deviceListSigEd25519Invalid = "device_list_sig_ed25519_invalid"
    case deviceListSigMLDSAInvalid = "device_list_sig_mldsa_invalid"
    case deviceListSigBothInvalid = "device_list_sig_both_invalid"
    case deviceListSignerMismatch = "device_list_signer_mismatch"
    case deviceListVersionExhausted = "device_list_version_exhausted"
    case deviceListEmptyAdvertisement = "device_list_empty_advertisement"
}
