import Testing
@testable import Conformance
@testable import Vectors

extension TwoFaultAuditTests {
    static let deviceListRun = reference(DeviceListHandler())

    /// device_list's two-fault cases are all audited: the account tampers and the forced
    /// HVNLEAF1 tail by their generator's models (both faults in one signed value), the two
    /// signature-length cases by the accepted neighbour written for them.
    @Test func deviceListCasesAreAuditedByModelOrNeighbour() throws {
        let file = try Self.committed("device_list")
        let audit = TwoFaultAudit(files: [file], pending: Self.pendingOf("device_list"))
        #expect(audit.isClean, "\(audit.findings.map { "\($0.id): \($0.problem)" }) \(audit.problems)")
        #expect(audit.lines.first?.byModel == 4)
        #expect(audit.lines.first?.pending == 0)

        // The account tamper's faults named the other way round: the signature fault alone is an
        // Ed25519 failure, not the case's account mismatch.
        let models = try TwoFaultModels.of(format: "device_list", cases: file.cases)
        let tamper = try #require(models.first { $0.id == "device_list/credential_verify/tamper/account-id-real-kem" })
        let c = try #require(file.cases.first { $0.id == tamper.id })
        let swapped = TwoFaultModel(tamper.id, op: tamper.op, first: "signature", second: "account") { try tamper.build($0) }
        #expect(swapped.audit(c, run: Self.deviceListRun) == "fault signature alone gives error device_list_sig_ed25519_invalid, not the case's answer")

        // Without their neighbour the signature-length cases cannot be split: the nearest accepted
        // case left holds the same credential in uppercase hex, two whole members away.
        var bare = file
        bare.cases.removeAll { $0.op != "credential_verify" || $0.id == "device_list/credential_verify/valid/name-nfc" }
        let without = TwoFaultAudit(files: [bare], pending: [:])
        #expect(Set(without.findings.map(\.id)) == ["device_list/credential_verify/signature/short-and-ed25519-bad-real-kem",
                                                    "device_list/credential_verify/signature/64-bytes-ed25519-bad-real-kem"])
    }
}
