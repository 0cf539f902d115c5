/// The wake class a sealed-sender envelope's header carries (SPEC.md §14.8): the class §7.8 gives
/// the payload type — `sync_request` is the one payload type of class `sync`, every other is
/// `silent`, compared byte for byte. The rule is §7.8's; this is where the envelope layer applies
/// it, and the seam its mutants use.
enum PayloadWakeClass {
    typealias WakeClass = ResendSchedule.WakeClass

    static func of(_ payloadType: String) -> WakeClass {
        if Mutant.on(.envelopeEveryPayloadSync) { return .sync }
        let syncType = Array(SyncPayloadType.syncRequest.rawValue.utf8)
        if Mutant.on(.envelopeWakeCaseInsensitive) { return payloadType.lowercased() == SyncPayloadType.syncRequest.rawValue ? .sync : .silent }
        return Array(payloadType.utf8) == syncType ? .sync : .silent
    }

    /// The header byte: 00 silent, 01 sync.
    static func byte(_ w: WakeClass) -> UInt8 { w == .sync ? 1 : 0 }
    static func from(byte b: UInt8) -> WakeClass { b == 1 ? .sync : .silent }
}
