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
    /// A runner-protocol case of a format the testee does not implement (SPEC.md §6.3).
    case unknownFormat = "unknown_format"
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
    case frameBadKeyLength = "frame_bad_key_length"

    // sync_offer codes go here (one block, added by the sync_offer work)
    // sync_request / sync_offer / sync_ack payloads and the snapshot blob (SPEC.md §7)
    case syncBadType = "sync_bad_type"
    case syncMissingField = "sync_missing_field"
    case syncBadLength = "sync_bad_length"
    case syncUnknownField = "sync_unknown_field"
    case syncWrongPayloadType = "sync_wrong_payload_type"
    case syncBadValue = "sync_bad_value"
    case syncUnsupportedVersion = "sync_unsupported_version"
    // receiver outcomes (reported as `reason`, SPEC.md §7.6)
    case syncNotSameAccount = "sync_not_same_account"
    case syncBlobOverCap = "sync_blob_over_cap"
    case syncSizeMismatch = "sync_size_mismatch"
    case syncBlobTooShort = "sync_blob_too_short"
    case syncHashMismatch = "sync_hash_mismatch"
    case syncAuthFailed = "sync_auth_failed"
    case syncPayloadInvalid = "sync_payload_invalid"

    // signin codes go here (one block)
    // signin payloads, PhoneOwnershipCert and the discovery lookup response: decoding (SPEC.md §8.2)
    case signinBadType = "signin_bad_type"
    case signinMissingField = "signin_missing_field"
    case signinBadLength = "signin_bad_length"
    case signinUnknownField = "signin_unknown_field"
    case signinWrongPayloadType = "signin_wrong_payload_type"
    case signinApprovalPartial = "signin_approval_partial"
    // the guard ladder's drop reasons, rungs 2–5 (SPEC.md §8.6); rung 1 reports the decoding code
    case signinNoPinnedKey = "signin_no_pinned_key"
    case signinCertMalformed = "signin_cert_malformed"
    case signinCertEd25519Invalid = "signin_cert_ed25519_invalid"
    case signinCertMLDSAInvalid = "signin_cert_mldsa_invalid"
    case signinCertBothInvalid = "signin_cert_both_invalid"
    case signinCertExpired = "signin_cert_expired"
    case signinNoOwnCert = "signin_no_own_cert"
    case signinOwnCertMalformed = "signin_own_cert_malformed"
    case signinPhoneIDMismatch = "signin_phone_id_mismatch"
    case signinTimestampTooOld = "signin_timestamp_too_old"
    case signinTimestampTooNew = "signin_timestamp_too_new"
    // why an approval does not admit (SPEC.md §8.8)
    case signinApprovalRejected = "signin_approval_rejected"
    case signinGrantExpired = "signin_grant_expired"

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
    case deviceListBadAdvertisement = "device_list_bad_advertisement"

    // account_state codes go here (one block): the plaintext decoder and the blob reader (SPEC.md §11)
    case accountStateTruncated = "account_state_truncated"
    case accountStateBadPresence = "account_state_bad_presence"
    case accountStateBadUTF8 = "account_state_bad_utf8"
    case accountStateDuplicateKey = "account_state_duplicate_key"
    case accountStateUnsortedKeys = "account_state_unsorted_keys"
    case accountStateZeroCursor = "account_state_zero_cursor"
    case accountStateTrailingBytes = "account_state_trailing_bytes"
    case accountStateBlobTruncated = "account_state_blob_truncated"
    case accountStateStaleEpoch = "account_state_stale_epoch"
    case accountStateAuthFailed = "account_state_auth_failed"
    case accountStateV0Retired = "account_state_v0_retired"

    // settle codes go here (one block): the settle loop's pure transition ops (SPEC.md §12)
    case settleUnknownEvent = "settle_unknown_event"
    case settleClockBackwards = "settle_clock_backwards"
    case settleUnknownSibling = "settle_unknown_sibling"
    case settleTimeOverflow = "settle_time_overflow"

    // HTTP services (SPEC.md §13): the in-process scenario verdict and the client-side outcome reasons
    case httpStepFailed = "http_step_failed"
    case pairingHelloFailed = "pairing_hello_failed"
    case pairingHelloInvalid = "pairing_hello_invalid"
    case pairingWireMismatch = "pairing_wire_mismatch"
    case pairingPairedElsewhere = "pairing_paired_elsewhere"
    case revocationNoSession = "revocation_no_session"
    case revocationNotRegistered = "revocation_not_registered"
    case revocationStatusFailed = "revocation_status_failed"
    case revocationStatusInvalid = "revocation_status_invalid"

    // envelope codes go here (one block): DiscoveryBox, sealed-sender envelope, SenderCert, channel keys (SPEC.md §14)
    case envelopeTruncated = "envelope_truncated"
    case envelopeWrongKind = "envelope_wrong_kind"
    case envelopeBadWakeClass = "envelope_bad_wake_class"
    case envelopeKEMCiphertextLength = "envelope_kem_ciphertext_length"
    case envelopeBadRecipientKey = "envelope_bad_recipient_key"
    case envelopeOpenFailed = "envelope_open_failed"
    case envelopeBadType = "envelope_bad_type"
    case envelopeMissingField = "envelope_missing_field"
    case envelopeBadLength = "envelope_bad_length"
    case envelopeUnknownField = "envelope_unknown_field"
    case envelopeMACMissing = "envelope_mac_missing"
    case envelopeSenderCertMalformed = "envelope_sender_cert_malformed"
    case envelopeSenderCertEd25519Invalid = "envelope_sender_cert_ed25519_invalid"
    case envelopeSenderCertMLDSAInvalid = "envelope_sender_cert_mldsa_invalid"
    case envelopeSenderCertBothInvalid = "envelope_sender_cert_both_invalid"
    case envelopeSenderCertExpired = "envelope_sender_cert_expired"
    case envelopeNoChannelKey = "envelope_no_channel_key"
    case envelopeUnknownAccount = "envelope_unknown_account"
    case envelopeMACInvalid = "envelope_mac_invalid"
    case envelopeWrongWakeClass = "envelope_wrong_wake_class"
    case envelopeUnexpectedPayloadType = "envelope_unexpected_payload_type"
}
