import Foundation
import Testing
@testable import Vectors

/// Issue 26: every device bundle in the committed `vectors/device_list.json` holds a canonical
/// ML-KEM-768 key (each 12-bit coefficient of t̂ below q), so Haven's `ml-kem` round trip is the
/// identity on it, except the cases flagged `mlkem-non-canonical`, whose answers must be what
/// Haven's re-encoding gives (SPEC.md §10.1 R10.1-7).
///
/// It reads the committed file (generating the suite here would take minutes) and decodes keys
/// with its own few lines of FIPS 203 ByteDecode12, not with the code under test.
struct DeviceListBundleCanonicalTests {
    static let q = 3329
    static let nonCanonicalFlag = "mlkem-non-canonical"

    /// One bundle found in a case: where it sits, its 3,200 bytes, and whether it is an input.
    struct Found: Sendable {
        let place: String
        let bytes: [UInt8]
        let isInput: Bool
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let op: String
        let flags: [String]
        let input: JSONValue
        let expected: JSONValue
        var testDescription: String { id }
        var isNonCanonical: Bool { flags.contains(DeviceListBundleCanonicalTests.nonCanonicalFlag) }
    }

    static let cases: [Case] = {
        guard let text = try? Fixtures.repoFile("vectors/device_list.json"), let json = try? JSONValue.parse(text),
              let items = json["cases"]?.arrayValue else { return [] }
        return items.map { c in
            Case(id: c["id"]?.stringValue ?? "?", op: c["op"]?.stringValue ?? "?",
                 flags: (c["flags"]?.arrayValue ?? []).compactMap(\.stringValue), input: c["input"] ?? .null, expected: c["expected"] ?? .null)
        }
    }()

    /// The cases that carry at least one whole bundle somewhere.
    static let withBundles: [Case] = cases.filter { !bundles(in: $0).isEmpty }

    // MARK: reading the file

    static func hex(_ v: JSONValue?) -> [UInt8]? {
        guard let s = v?.stringValue, s.count % 2 == 0 else { return nil }
        let chars = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        for i in stride(from: 0, to: chars.count, by: 2) {
            guard let b = UInt8(String(decoding: chars[i...i + 1], as: UTF8.self), radix: 16) else { return nil }
            out.append(b)
        }
        return out
    }

    /// The bundle inside a credential wire or credential signing bytes, when it is complete:
    /// name_len at 40 (wire) and a 3,200-byte bundle_len, or the last 3,200 bytes (signing bytes).
    static func credentialBundle(wire w: [UInt8]) -> [UInt8]? {
        guard w.count >= 44 else { return nil }
        let nameLength = Int(w[40]) | Int(w[41]) << 8 | Int(w[42]) << 16 | Int(w[43]) << 24
        let at = 44 + nameLength
        guard w.count >= at + 4 + 3200 else { return nil }
        let bundleLength = Int(w[at]) | Int(w[at + 1]) << 8 | Int(w[at + 2]) << 16 | Int(w[at + 3]) << 24
        return bundleLength == 3200 ? Array(w[(at + 4)..<(at + 4 + 3200)]) : nil
    }

    static func bundles(in c: Case) -> [Found] {
        var found: [Found] = []
        func field(_ tree: JSONValue?, _ name: String, _ place: String, input: Bool) {
            if let b = hex(tree?[name]), b.count == 3200 { found.append(Found(place: place, bytes: b, isInput: input)) }
        }
        let output = c.expected["output"]
        field(c.input, "device_bundle", "input.device_bundle", input: true)
        field(c.input, "pinned", "input.pinned", input: true)
        field(output, "bundle", "output.bundle", input: false)
        field(output, "device_bundle", "output.device_bundle", input: false)
        if c.op.hasPrefix("credential_") {
            if let w = hex(c.input["wire"]), let b = credentialBundle(wire: w) { found.append(Found(place: "input.wire", bytes: b, isInput: true)) }
            if let w = hex(output?["wire"]), let b = credentialBundle(wire: w) { found.append(Found(place: "output.wire", bytes: b, isInput: false)) }
            if let s = hex(output?["signing_bytes"]), s.count >= 3200 { found.append(Found(place: "output.signing_bytes", bytes: Array(s.suffix(3200)), isInput: false)) }
        }
        return found
    }

    // MARK: FIPS 203 ByteDecode12 of bytes 64–1215, written out here

    /// The 768 coefficients of t̂: 3 polynomials × 384 bytes, two 12-bit little-endian values per
    /// three bytes. Bytes 1216–1247 are ρ, which has no coefficients.
    static func coefficients(_ bundle: [UInt8]) -> [Int] {
        var out: [Int] = []
        for poly in 0..<3 {
            let start = 64 + 384 * poly
            for i in stride(from: start, to: start + 384, by: 3) {
                let x = Int(bundle[i]) | Int(bundle[i + 1]) << 8 | Int(bundle[i + 2]) << 16
                out += [x & 0xfff, x >> 12]
            }
        }
        return out
    }

    /// What Haven's `HavenId::to_bytes` writes for a parsed bundle: each coefficient mod q.
    static func havenRoundTrip(_ bundle: [UInt8]) -> [UInt8] {
        let c = coefficients(bundle).map { $0 % q }
        var out = bundle
        for k in 0..<(c.count / 2) {
            let x = c[2 * k] | c[2 * k + 1] << 12
            out[64 + 3 * k] = UInt8(x & 0xff); out[65 + 3 * k] = UInt8(x >> 8 & 0xff); out[66 + 3 * k] = UInt8(x >> 16)
        }
        return out
    }

    static func isCanonical(_ bundle: [UInt8]) -> Bool { coefficients(bundle).allSatisfy { $0 < q } }

    // MARK: the checks

    @Test func theFileHasBundlesToCheck() {
        // A silently empty list would pass everything below.
        #expect(Self.cases.count > 300)
        #expect(Self.withBundles.count >= 140, "cases with a bundle: \(Self.withBundles.count)")
        // 7 mlkem cases and R10.1-7's facet edges at q and q + 1 (DeviceListFacets).
        #expect(Self.withBundles.filter(\.isNonCanonical).count == 9)
    }

    @Test func theDecoderSeesOutOfRangeCoefficients() {
        // The check below cannot pass vacuously: a key of ff bytes is 4,095 everywhere.
        var b = [UInt8](repeating: 0, count: 3200)
        b.replaceSubrange(64..<1216, with: [UInt8](repeating: 0xff, count: 1152))
        #expect(Self.coefficients(b).count == 768 && Self.coefficients(b).allSatisfy { $0 == 4095 })
        #expect(!Self.isCanonical(b) && Self.isCanonical(Self.havenRoundTrip(b)))
        #expect(Self.havenRoundTrip(b)[64..<67] == [0xfe, 0xe2, 0x2f])   // 766 = 4095 mod q
    }

    @Test(arguments: withBundles)
    func everyBundleIsCanonicalUnlessFlagged(_ c: Case) {
        let found = Self.bundles(in: c)
        for f in found where !f.isInput || !c.isNonCanonical {
            let bad = Self.coefficients(f.bytes).enumerated().filter { $0.element >= Self.q }
            let outOfRange = bad.count
            #expect(outOfRange == 0, "\(f.place): \(outOfRange) coefficients ≥ q, first at index \(bad.first?.offset ?? -1) = \(bad.first?.element ?? -1)")
        }
        if c.isNonCanonical {
            #expect(found.contains { $0.isInput && !Self.isCanonical($0.bytes) }, "flagged \(Self.nonCanonicalFlag) but every input bundle is canonical")
        }
    }

    /// The pinned behaviour: outputs carry Haven's re-encoding of the input, verification is over it.
    @Test(arguments: cases.filter(\.isNonCanonical))
    func nonCanonicalKeysGetHavensAnswer(_ c: Case) throws {
        let output = c.expected["output"]
        switch c.op {
        case "credential_issue":
            let given = try #require(Self.hex(c.input["device_bundle"]))
            let wireBytes = try #require(Self.hex(output?["wire"]))
            let wire = try #require(Self.credentialBundle(wire: wireBytes))
            let signed = Array(try #require(Self.hex(output?["signing_bytes"])).suffix(3200))
            #expect(wire == Self.havenRoundTrip(given) && signed == wire && wire != given)
        case "credential_decode":
            let wireBytes = try #require(Self.hex(c.input["wire"]))
            let given = try #require(Self.credentialBundle(wire: wireBytes))
            let out = try #require(Self.hex(output?["device_bundle"]))
            #expect(out == Self.havenRoundTrip(given) && out != given)
        case "credential_verify" where c.id.hasSuffix("/signed-as-given"):
            #expect(c.expected["error"]?.stringValue == "device_list_sig_ed25519_invalid")
        case "credential_verify", "list_verify":
            #expect(output?["verified"]?.boolValue == true)
        default:
            Issue.record("no check for a non-canonical \(c.op) case")
        }
    }
}
