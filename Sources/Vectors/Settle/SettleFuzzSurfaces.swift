/// The settle state machine under the fuzzer: its op inputs are JSON documents (a state and an
/// event, or a whole episode), so the fuzzed bytes are the whole input text, which takes the
/// §2.2 op-input layer and §13's readers together. The first byte picks the op.
enum SettleFuzzSurfaces {
    static let all: [FuzzSurface] = [
        .opInput("settle", "step/episode: any JSON input is answered or refused with a code, never a trap",
                 handler: SettleHandler(), ops: ["step", "episode"]),
    ]
}
