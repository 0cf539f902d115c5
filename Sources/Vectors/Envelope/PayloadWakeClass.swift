/// The wake class a sealed-sender envelope's header carries (SPEC.md §14.8): the class §7.8 gives
/// the payload type (`ResendSchedule.wakeClass(payloadType:)`, the one statement of the rule:
/// `sync_request` is the only payload type of class `sync`, every other is `silent`, compared byte
/// for byte). This layer only carries and checks it; the two envelope mutants model a sender or
/// receiver that gets the rule wrong at this seam.
enum PayloadWakeClass {
    typealias WakeClass = ResendSchedule.WakeClass

    static func of(_ payloadType: String) -> WakeClass {
        if Mutant.on(.envelopeEveryPayloadSync) { return .sync }
        if Mutant.on(.envelopeWakeCaseInsensitive) { return payloadType.lowercased() == SyncPayloadType.syncRequest.rawValue ? .sync : .silent }
        return ResendSchedule.wakeClass(payloadType: payloadType)
    }

    /// The header byte: 00 silent, 01 sync.
    static func byte(_ w: WakeClass) -> UInt8 { w == .sync ? 1 : 0 }
    static func from(byte b: UInt8) -> WakeClass { b == 1 ? .sync : .silent }
}
