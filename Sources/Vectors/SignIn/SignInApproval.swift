/// `signin_approval` (SPEC.md §8.8): the sibling's answer after a human taps Approve or Reject.
///
/// Approve carries three members together — the grant, the 32-byte account signing seed and the
/// account's KT handle; Reject carries none of them. The seed rides here, inside the X-Wing box
/// sealed to the requester's ephemeral key, because every sibling frame is MAC'd under a key
/// derived from that seed: asking for it over a sibling frame needed the seed already (seed §5).
public struct SignInApproval: Sendable, Hashable {
    public static let accountSeedByteCount = 32
    public static let ktHandleByteCount = 32
    static let members = ["grant", "kt_handle", "account_seed"]

    public struct Approved: Sendable, Hashable {
        public var grant: DeviceGrant
        public var accountSeed: [UInt8]
        /// The account's label in the key-transparency log: the 32-byte userIDHash that
        /// ktIdentityLedger entries commit (§4.4).
        public var ktHandle: [UInt8]

        public init(grant: DeviceGrant, accountSeed: [UInt8], ktHandle: [UInt8]) throws(WireError) {
            guard accountSeed.count == SignInApproval.accountSeedByteCount else {
                throw WireError(.signinBadLength, "account_seed must be 32 bytes, got \(accountSeed.count)", field: "account_seed")
            }
            guard ktHandle.count == SignInApproval.ktHandleByteCount else {
                throw WireError(.signinBadLength, "kt_handle must be 32 bytes, got \(ktHandle.count)", field: "kt_handle")
            }
            self.grant = grant
            self.accountSeed = accountSeed
            self.ktHandle = ktHandle
        }
    }

    /// nil: the user tapped Reject.
    public var approved: Approved?

    public init(approved: Approved?) { self.approved = approved }

    public var tree: CBOR {
        var m: [(String, CBOR)] = [("type", .text(SignInPayloadType.signinApproval.rawValue))]
        if let a = approved {
            m += [("grant", a.grant.tree), ("account_seed", .bytes(a.accountSeed)), ("kt_handle", .bytes(a.ktHandle))]
        }
        return .object(m)
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SignInApproval {
        let r = try SignInMapReader(bytes, tag: .signinApproval, allowed: members)
        let present = ["grant", "account_seed", "kt_handle"].filter { r.has($0) }
        if present.isEmpty { return SignInApproval(approved: nil) }
        guard present.count == 3 else {
            throw WireError(.signinApprovalPartial, "grant, account_seed and kt_handle travel together or not at all; got only \(present.joined(separator: ", "))",
                            field: present[0])
        }
        let grant = try DeviceGrant.read(try r.map("grant", allowed: DeviceGrant.members))
        return SignInApproval(approved: try Approved(grant: grant, accountSeed: try r.bytes("account_seed", length: accountSeedByteCount),
                                                     ktHandle: try r.bytes("kt_handle", length: ktHandleByteCount)))
    }

    /// Whether this approval admits the device at `now` (§8.8): only a grant admits, and only
    /// before its expiry. A rejection — an approval without a grant — never admits.
    public func admits(now: UInt64) -> ErrorCode? {
        guard let a = approved else { return Mutant.on(.signinRejectionAdmits) ? nil : .signinApprovalRejected }
        guard now < a.grant.expiresAt || (Mutant.on(.signinGrantValidAtExpiry) && now == a.grant.expiresAt) else { return .signinGrantExpired }
        return nil
    }
}
