/// Every wire format the reference implements, in a stable order. Adding a format means adding
/// its handler here; `generate`, `verify` and `serve` pick it up.
public enum Reference {
    public static var handlers: [any FormatHandler] {
        [StateDigestHandler(), ReconcileHandler(), SyncOfferHandler(), SignInHandler(), DeviceListHandler(),
         AccountStateHandler(),
         SettleHandler(), PairingHandler(), RevocationHandler(), EnvelopeHandler()]
    }

    public static func handler(for format: String) -> (any FormatHandler)? {
        handlers.first { $0.format == format }
    }
}
