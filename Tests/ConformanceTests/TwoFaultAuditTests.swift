import Foundation
import Primitives
import Testing
@testable import Conformance
@testable import Vectors

/// The self-audit of the hand-written two-fault cases (issue 23, item 4): the places two inputs
/// differ in are found and put back one at a time, and a case whose two faults give one answer
/// fails the audit.
@Suite struct TwoFaultAuditTests {
    static func committed(_ format: String) throws -> VectorFile {
        try VectorFile.read(format: format, in: Fixtures.vectors)
    }

    @Test func placesArePutBackOneAtATime() {
        // A byte changed at 1, two bytes at 4..<6, and a tail of one more byte, in hex text.
        let base = CBOR.map([(.text("blob"), .text("00112233445566")), (.text("n"), .unsigned(1))])
        let faulty = CBOR.map([(.text("blob"), .text("00ff2233aabb6677")), (.text("n"), .unsigned(1)), (.text("x"), .bool(true))])
        let places = Difference.places(faulty, base)
        #expect(places.count == 4)
        let tailAndExtra = Set([places[2], places[3]].flatMap { $0 })
        #expect(Difference.revert(faulty, to: base, at: tailAndExtra) == .map([(.text("blob"), .text("00ff2233aabb66")), (.text("n"), .unsigned(1))]))
        let all = Set(places.flatMap { $0 })
        #expect(Difference.revert(faulty, to: base, at: all) == base)
        // Merged under their parents: the three places in `blob`, then `x`.
        let levels = Difference.levels(places, limit: 8)
        #expect(levels.map(\.count) == [4, 2])
    }

    /// CBOR held as hex is read as written: map entries in their order, repeats and invalid UTF-8
    /// kept; it writes back to the same bytes, and a long head is left to the byte comparison.
    @Test func cborInHexIsReadAsWritten() throws {
        // {"b": 1, "a": h'00', "a": "\xff"}: unsorted, a repeated key, a text that is not UTF-8.
        let written: [UInt8] = [0xa3, 0x61, 0x62, 0x01, 0x61, 0x61, 0x41, 0x00, 0x61, 0x61, 0x61, 0xff]
        let tree = try #require(LaxCBORTree.tree(written))
        #expect(LaxCBORTree.bytes(tree) == written)
        guard case .tagged(LaxCBORTree.mapTag, .array(let flat)) = tree else { Issue.record("not a map: \(tree)"); return }
        #expect(flat.count == 6)
        #expect(flat[0] == .tagged(LaxCBORTree.textTag, .bytes([0x62])))
        #expect(flat[5] == .tagged(LaxCBORTree.textTag, .bytes([0xff])))
        #expect(LaxCBORTree.tree([0x18, 0x01]) == nil)  // 1 in a long head: not as written
        #expect(LaxCBORTree.tree([0x82, 0x01]) == nil)  // truncated
        #expect(LaxCBORTree.tree([0x01, 0x02]) == nil)  // trailing

        // Two members changed inside one hex string: two places by item (one bytes run by byte).
        let base = CBOR.map([(.text("encoded"), .text(Hex.encode([0xa2, 0x61, 0x61, 0x01, 0x61, 0x62, 0x02])))])
        let faulty = CBOR.map([(.text("encoded"), .text(Hex.encode([0xa2, 0x61, 0x61, 0x61, 0x78, 0x61, 0x63, 0x02])))])
        #expect(Difference.places(faulty, base).count == 2)  // the byte run, the length
        let places = Difference.places(faulty, base, trees: true)
        #expect(places.count == 2)
        let onlyKey = Difference.revert(faulty, to: base, at: Set(places[0]), trees: true)
        #expect(onlyKey == .map([(.text("encoded"), .text(Hex.encode([0xa2, 0x61, 0x61, 0x01, 0x61, 0x63, 0x02])))]))
    }

    /// A repeated key is a place of its own: putting it back removes the repeat and keeps the first.
    @Test func aRepeatedKeyIsPutBackAlone() {
        let base = CBOR.map([(.text("frame"), .text(#"{"kind":"a","n":1}"#))])
        let faulty = CBOR.map([(.text("frame"), .text(#"{"kind":"b","kind":"b","n":1}"#))])
        let places = Difference.places(faulty, base)
        #expect(places.count == 2)
        #expect(Difference.revert(faulty, to: base, at: Set(places[1])) == .map([(.text("frame"), .text(#"{"kind":"b","n":1}"#))]))
        #expect(Difference.revert(faulty, to: base, at: Set(places[0])) == .map([(.text("frame"), .text(#"{"kind":"a","kind":"b","n":1}"#))]))
    }

    /// A decode_snapshot order case (pending while the audit compared its CBOR byte by byte) is
    /// audited item by item inside its CBOR.
    @Test func aCBOROrderCaseIsAuditedByItsItems() throws {
        let file = try Self.committed("sync_offer")
        let id = "sync_offer/decode_snapshot/order/row-before-key-order"
        let c = try #require(file.cases.first { $0.id == id })
        let accepted = file.cases.filter { $0.op == c.op && { if case .output = $0.expected { true } else { false } }($0) }
        let handler = try #require(Reference.handler(for: "sync_offer"))
        #expect(TwoFaultAudit.audit(c, accepted: accepted, neighbours: [], handler: handler) == nil)
    }

    @Test func aJSONDocumentInAStringIsComparedMemberByMember() {
        let base = CBOR.map([(.text("frame"), .text(#"{"kind":"a","n":1,"list":[1,2]}"#))])
        let faulty = CBOR.map([(.text("frame"), .text(#"{"kind":"b","n":1,"list":[1,2,3]}"#))])
        let places = Difference.places(faulty, base)
        #expect(places.count == 2)
        #expect(Difference.revert(faulty, to: base, at: Set(places[0])) == .map([(.text("frame"), .text(#"{"kind":"a","n":1,"list":[1,2,3]}"#))]))
    }

    /// `wire "1"` and `paired "false"` are both pairing_hello_invalid: each is a fault, but the
    /// two give one answer, so a case holding both cannot tell which is read first. Issue 23
    /// withdrew the committed case that claimed so; the audit is shown here on that claim put back
    /// (the replacement case with its `two-faults` flag): it fails, only a pending entry keeps the
    /// gate open, and an entry for a case that passes is stale.
    @Test func aCaseWhoseFaultsGiveOneAnswerFailsTheAudit() throws {
        var file = try Self.committed("pairing")
        let replacement = try #require(file.cases.first { $0.id == "pairing/ensure_paired/paired/wire-and-paired-both-unreadable" })
        #expect(TwoFaultAudit(files: [file], pending: [:]).findings.isEmpty)
        var weak = replacement
        weak.id = "pairing/ensure_paired/order/weak-claim"
        weak.flags = ["stop", "two-faults", "rule:R13.3-5", "rule:R13.3-3"]
        file.cases.append(weak)
        let id = weak.id
        let bare = TwoFaultAudit(files: [file], pending: [:])
        #expect(bare.findings.map(\.id) == [id])
        #expect(bare.lines.first?.audited == 3)
        #expect(TwoFaultAudit(files: [file], pending: [id: "listed"]).isClean)
        let passing = try #require(InputFacets.sourceCases(file.cases).first { TwoFaultAudit.isHandWritten($0) && $0.id != id })
        let stale = TwoFaultAudit(files: [file], pending: [id: "listed", passing.id: "listed"])
        #expect(stale.findings.map(\.id) == [passing.id])
        #expect(TwoFaultAudit(files: [file], pending: [id: "listed", "pairing/none": "x"]).problems == ["two-faults-pending.tsv: pairing/none names no case"])
    }
}

extension TwoFaultAuditTests {
    /// state_digest/root/messages/order/rows-read-before-duplicates differs from the empty
    /// namespaces in two coarse places (namespace, rows), which outrank its written neighbour; the
    /// `neighbour-of:` flag is what gets it audited, and a flag naming no such case is a problem.
    @Test func aWrittenNeighbourDecidesTheAudit() throws {
        let file = try Self.committed("state_digest")
        let id = "state_digest/root/messages/order/rows-read-before-duplicates"
        let flag = TwoFaultAudit.neighbourFlag + id
        let neighbour = try #require(file.cases.first { $0.flags.contains(flag) })
        #expect(neighbour.id == "state_digest/root/messages/order/neighbour-three-rows")
        let audited = TwoFaultAudit(files: [file], pending: Self.pendingOf("state_digest"))
        #expect(!audited.findings.contains { $0.id == id })
        #expect(audited.problems.isEmpty)

        var unflagged = file
        unflagged.cases = file.cases.map { c in var c = c; c.flags.removeAll { $0.hasPrefix(TwoFaultAudit.neighbourFlag) }; return c }
        #expect(TwoFaultAudit(files: [unflagged], pending: Self.pendingOf("state_digest")).findings.contains { $0.id == id })

        var stale = file
        let i = try #require(stale.cases.firstIndex { $0.id == neighbour.id })
        stale.cases[i].flags.append(TwoFaultAudit.neighbourFlag + "state_digest/root/messages/none")
        #expect(TwoFaultAudit(files: [stale], pending: Self.pendingOf("state_digest")).problems
                == ["\(neighbour.id): neighbour-of:state_digest/root/messages/none names no hand-written two-fault case"])
    }

    /// revocation's guard/not-registered-and-failed is audited only against the neighbour its
    /// generator lists (answer/null-body); every listed neighbour is an accepted case.
    @Test func aListedNeighbourDecidesTheAudit() throws {
        let id = "revocation/self_status_outcome/guard/not-registered-and-failed"
        #expect(TwoFaultNeighbours.all[id] == "revocation/self_status_outcome/answer/null-body")
        let audit = TwoFaultAudit(files: [try Self.committed("revocation")], pending: [:])
        #expect(audit.findings.isEmpty)
        #expect(audit.problems.isEmpty)
        #expect(audit.lines.first?.audited == 4)

        // A listed neighbour that is no accepted case of the op is a problem, not a silent miss.
        var broken = try Self.committed("revocation")
        let n = try #require(broken.cases.firstIndex { $0.id == "revocation/self_status_outcome/answer/null-body" })
        broken.cases[n].expected = .error(.revocationStatusInvalid)
        #expect(TwoFaultAudit(files: [broken], pending: [:]).problems
                == ["TwoFaultNeighbours: \(id) → revocation/self_status_outcome/answer/null-body: the neighbour must be an accepted case of self_status_outcome"])
    }

    /// The committed pending entries of one format.
    static func pendingOf(_ format: String) -> [String: String] {
        let all = (try? InputCoverage.exemptions(at: Fixtures.packageRoot.appendingPathComponent("coverage").appendingPathComponent(TwoFaultAudit.pendingFile))) ?? [:]
        return all.filter { $0.key.hasPrefix(format + "/") }
    }
}

/// The tie-break axis: each other reading of a declared tie-break (a mutant) must be told apart
/// by a case pinning the rule; without such a case the axis has a gap.
@Suite struct TieBreakCoverageTests {
    @Test func aTieBreakNeedsACaseTheOtherReadingFails() throws {
        var file = try VectorFile.read(format: "settle", in: Fixtures.vectors)
        let settle = FacetIndex.all.filter { $0.format == "settle" }
        let full = TieBreakCoverage(files: [file], facets: settle)
        let entry = try #require(full.entries.first { $0.facet.rule == "R12.5-5" })
        #expect(entry.mutant == .settleBackoffBeforeDebounce && !entry.witnesses.isEmpty)
        #expect(full.isClean)
        // Without the cases that tell the readings apart, the rule is still pinned, but the tie is not.
        file.cases.removeAll { entry.witnesses.contains($0.id) }
        #expect(file.cases.contains { $0.flags.contains("rule:R12.5-5") })
        let gap = TieBreakCoverage(files: [file], facets: settle)
        #expect(gap.problems.count == 1 && gap.problems[0].hasPrefix("tiebreak:R12.5-5: no case pinning R12.5-5"))
    }
}

extension TwoFaultAuditTests {
    /// The reference's answer to one op input, as a model's audit asks for it.
    static func reference(_ handler: any FormatHandler) -> @Sendable (String, CBOR) -> Result<JSONValue, WireError> {
        { op, input in Result { () throws(WireError) -> JSONValue in try handler.run(op: op, input: input.json) } }
    }

    static let syncOfferRun = reference(SyncOfferHandler())

    /// sync_offer's receive cases whose two faults live in one offer are audited by their
    /// generator's model, against the committed file; a model that is not its case, whose faults
    /// are not faults, or that names its faults in the wrong order fails, each with its reason.
    @Test func aFaultModelDecidesTheCasesItBuilds() throws {
        let file = try Self.committed("sync_offer")
        let models = try TwoFaultModels.of(format: "sync_offer", cases: file.cases)
        #expect(models.count == 7)
        let audit = TwoFaultAudit(files: [file], pending: Self.pendingOf("sync_offer"))
        #expect(audit.isClean)
        #expect(audit.lines.first?.byModel == 7)
        let byID = Dictionary(file.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for m in models {
            let c = try #require(byID[m.id])
            #expect(m.audit(c, run: Self.syncOfferRun) == nil, "\(m.id)")
        }

        let cap = try #require(models.first { $0.id == "sync_offer/receive/order/cap-before-size" })
        let c = try #require(byID[cap.id])
        // The faults named the other way round: the size fault alone is not the case's answer.
        let swapped = TwoFaultModel(cap.id, op: "receive", first: "size", second: "cap") { try cap.build($0) }
        #expect(swapped.audit(c, run: Self.syncOfferRun)?.hasPrefix("fault size alone gives output") == true)
        // A "second fault" that changes nothing: the cap alone, the size always right.
        let oneFault = TwoFaultModel(cap.id, op: "receive", first: "cap", second: "size") { s in
            try cap.build(FaultSet(on: s.has("cap") ? ["cap", "size"] : []))
        }
        #expect(oneFault.audit(c, run: Self.syncOfferRun)?.hasPrefix("fault size alone answers as no fault") == true)
        // A model that builds another input than the committed case.
        let other = TwoFaultModel(cap.id, op: "receive", first: "cap", second: "size") { s in
            try cap.build(s).setting("max_blob_bytes", .unsigned(1))
        }
        #expect(other.audit(c, run: Self.syncOfferRun) == "its model with both faults on is not the case's input")
        // A model naming a case that is not a hand-written two-fault case is a problem, not
        // silently unaudited.
        var problems: [String] = []
        var unflagged = file
        let i = try #require(unflagged.cases.firstIndex { $0.id == cap.id })
        unflagged.cases[i].flags.removeAll { $0 == "two-faults" }
        #expect(TwoFaultAudit.models(of: unflagged, problems: &problems).count == 6)
        #expect(problems == ["two-fault model \(cap.id) names no hand-written two-fault case of sync_offer"])
    }

    /// settle's `step` echoes the state it was given, so its model is judged on the `actions`
    /// alone: judged on the whole output, no single fault could give the case's answer; judged on
    /// the actions, the faults named the other way round fail.
    @Test func aModelOfAnEchoingOpIsJudgedOnItsDecisivePart() throws {
        let file = try Self.committed("settle")
        let models = try TwoFaultModels.of(format: "settle", cases: file.cases)
        let m = try #require(models.first)
        #expect(models.map(\.id) == ["settle/step/order/undecodable-digest-from-a-backed-off-sibling"])
        let c = try #require(file.cases.first { $0.id == m.id })
        let run = Self.reference(SettleHandler())
        #expect(m.audit(c, run: run) == nil)
        let whole = TwoFaultModel(m.id, op: "step", first: "version", second: "backoff") { try m.build($0) }
        #expect(whole.audit(c, run: run)?.hasPrefix("fault version alone gives output") == true)
        let swapped = TwoFaultModel(m.id, op: "step", first: "backoff", second: "version", decisive: { $0["actions"] }) { try m.build($0) }
        #expect(swapped.audit(c, run: run)?.hasPrefix("fault backoff alone gives output") == true)
        let audit = TwoFaultAudit(files: [file], pending: Self.pendingOf("settle"))
        #expect(audit.isClean)
        #expect(audit.lines.first?.byModel == 1)
    }
}

extension TwoFaultAuditTests {
    static let envelopeRun = reference(EnvelopeHandler())

    /// envelope's two-fault cases sealed under eseeds from the generator's shared stream are
    /// audited by models that open the committed envelope: a model whose plaintext, header, AAD
    /// or other members are not the case's fails, as does one whose fresh seals do not open to
    /// what it says they hold, or whose faults are named the other way round.
    @Test func aSealedModelIsShownToBeItsCaseByOpeningIt() throws {
        let file = try Self.committed("envelope")
        let models = try TwoFaultModels.of(format: "envelope", cases: file.cases)
        let audit = TwoFaultAudit(files: [file], pending: Self.pendingOf("envelope"))
        #expect(audit.isClean)
        #expect(audit.lines.first?.byModel == models.count)
        #expect(audit.lines.first?.pending == 0)
        let byID = Dictionary(file.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })

        let m = try #require(models.first { $0.id == "envelope/envelope_open/order/seal-before-inner" })
        let sealed = try #require(m.sealed)
        let c = try #require(byID[m.id])
        #expect(m.audit(c, run: Self.envelopeRun) == nil)
        func variant(first: String = "seal", second: String = "inner", sealing: Sealing = EnvelopeVectors.envelopeSealing,
                     _ edit: @escaping @Sendable (inout SealedInput) -> Void) -> TwoFaultModel {
            TwoFaultModel(m.id, op: m.op, first: first, second: second, sealing: sealing) { s in
                var x = try sealed.contents(s)
                edit(&x)
                return x
            }
        }
        // A plaintext one byte longer than the committed envelope's.
        #expect(variant { $0.plaintext += [0] }.audit(c, run: Self.envelopeRun)
                == "the case's envelope opens to another plaintext than its model's with both faults on")
        // The header as sealed, not as altered after sealing: the wire's wake byte is 01.
        #expect(variant { $0.header = $0.aad }.audit(c, run: Self.envelopeRun)?.hasPrefix("its model with both faults on has the header 02000460") == true)
        // Sealed under the header on the wire: the committed envelope does not open under it.
        #expect(variant { $0.aad = $0.header }.audit(c, run: Self.envelopeRun)?.hasPrefix("the case's envelope does not open") == true)
        // Another member than the case's (a later clock).
        #expect(variant { $0.input = EnvelopeVectors.replacing($0.input, "now_s", .unsigned(1)) }.audit(c, run: Self.envelopeRun)
                == "its model with both faults on is not the case's input outside envelope")
        // A seal that goes to another recipient than the input names: its inputs do not open.
        let stranger = EnvelopeVectors.replacing(try sealed.contents(FaultSet()).input, "recipient_seed", .bytes(EnvelopeFixtures.seed("pixie.vectors.envelope.stranger")))
        let misdirected = Sealing(seal: { p, aad, _, label in try EnvelopeVectors.envelopeSealing.seal(p, aad, stranger, label) },
                                  open: EnvelopeVectors.envelopeSealing.open)
        #expect(variant(sealing: misdirected) { _ in }.audit(c, run: Self.envelopeRun)?.hasPrefix("its model does not build") == true)
        // The faults named the other way round.
        #expect(variant(first: "inner", second: "seal") { _ in }.audit(c, run: Self.envelopeRun)
                == "fault inner alone gives error envelope_mac_missing, not the case's answer")
    }
}
