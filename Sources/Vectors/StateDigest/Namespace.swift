/// The thirteen StateDigest v6 namespaces, in digest order. The order is part of the wire format:
/// root i of `StateDigest.encoded()` belongs to `allCases[i]`.
public enum Namespace: String, CaseIterable, Sendable, Hashable {
    case settings, messages, memory, notebook, saga, contacts, plans, peerDevices, fileIndex,
         ktIdentityLedger, blocks, posts, agentConversations

    /// `pixie.state.<namespace>`: the leaf domain separator (SPEC.md §StateDigest.Leaf).
    public var separator: String { "pixie.state." + rawValue }
}
