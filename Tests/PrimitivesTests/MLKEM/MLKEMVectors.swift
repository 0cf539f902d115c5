import Foundation
import Primitives
import Testing

/// Loaders for the ML-KEM-768 known-answer files under `KAT/acvp`, `KAT/pq-kat` and
/// `KAT/accumulated` (see KAT/PROVENANCE.md). Every loader returns [] (or skips a record) when a
/// file or field is missing or malformed, and each suite asserts the expected non-zero counts.
enum MLKEMVectors {
    static let keyGenFile = "acvp/ML-KEM-keyGen-FIPS203.ML-KEM-768.internalProjection.json"
    static let encapDecapFile = "acvp/ML-KEM-encapDecap-FIPS203.ML-KEM-768.internalProjection.json"
    static let tr1File = "acvp/ML-KEM-encapDecap-FIPS203-tr1.ML-KEM-768.decapsulation.internalProjection.json"
    static let pqKATFile = "pq-kat/kat_MLKEM_768.first10.rsp"

    static func bytes(_ dict: [String: Any], _ key: String) -> [UInt8]? {
        (dict[key] as? String).flatMap(Hex.decode)
    }

    static func name(_ file: String, _ g: [String: Any], _ t: [String: Any], _ extra: String = "") -> String {
        let short = file.split(separator: "/").last.map(String.init) ?? file
        return "\(short) tgId=\(g["tgId"] ?? "?") tcId=\(t["tcId"] ?? "?")\(extra)"
    }

    /// Tests of the groups whose `function` is `function` (nil: every group), in file order.
    static func tests(_ file: String, function: String?) -> [(group: [String: Any], test: [String: Any])] {
        MLDSAVectors.acvpTests(file).filter { g, _ in function == nil || (g["function"] as? String) == function }
    }

    // MARK: keyGen (AFT): (d, z) → (ek, dk)

    struct KeyGenCase: CustomTestStringConvertible, Sendable {
        let name: String
        let d: [UInt8], z: [UInt8], ek: [UInt8], dk: [UInt8]
        var testDescription: String { name }
    }

    static func keyGenCases() -> [KeyGenCase] {
        tests(keyGenFile, function: nil).compactMap { g, t in
            guard let d = bytes(t, "d"), let z = bytes(t, "z"), let ek = bytes(t, "ek"), let dk = bytes(t, "dk") else { return nil }
            return KeyGenCase(name: name(keyGenFile, g, t), d: d, z: z, ek: ek, dk: dk)
        }
    }

    // MARK: encapsulation (AFT): (ek, m) → (c, k); decapsulation (VAL): (dk, c) → k

    struct EncapsulationCase: CustomTestStringConvertible, Sendable {
        let name: String
        let ek: [UInt8], dk: [UInt8], m: [UInt8], c: [UInt8], k: [UInt8]
        var testDescription: String { name }
    }

    static func encapsulationCases() -> [EncapsulationCase] {
        tests(encapDecapFile, function: "encapsulation").compactMap { g, t in
            guard let ek = bytes(t, "ek"), let dk = bytes(t, "dk"), let m = bytes(t, "m"),
                  let c = bytes(t, "c"), let k = bytes(t, "k") else { return nil }
            return EncapsulationCase(name: name(encapDecapFile, g, t), ek: ek, dk: dk, m: m, c: c, k: k)
        }
    }

    enum KeyFormat: String, Sendable { case expanded, seed }

    struct DecapsulationCase: CustomTestStringConvertible, Sendable {
        let name: String
        let keyFormat: KeyFormat
        /// The seed d ‖ z for `seed` groups (empty otherwise).
        let seed: [UInt8]
        let ek: [UInt8], dk: [UInt8], c: [UInt8], k: [UInt8]
        /// The file's `reason`: "valid decapsulation" or "modified ciphertext".
        let valid: Bool
        var testDescription: String { name }
    }

    /// The decapsulation groups of both encapDecap files (tgId 5 of the FIPS203 file has no
    /// `keyFormat`: the expanded dk; the tr1 file has one `seed` and one `expanded` group).
    static func decapsulationCases() -> [DecapsulationCase] {
        [encapDecapFile, tr1File].flatMap { file in
            tests(file, function: "decapsulation").compactMap { g, t -> DecapsulationCase? in
                guard let format = KeyFormat(rawValue: g["keyFormat"] as? String ?? "expanded"),
                      let ek = bytes(t, "ek"), let dk = bytes(t, "dk"), let c = bytes(t, "c"), let k = bytes(t, "k"),
                      let reason = t["reason"] as? String,
                      reason == "valid decapsulation" || reason == "modified ciphertext" else { return nil }
                var seed: [UInt8] = []
                if format == .seed {
                    guard let d = bytes(t, "d"), let z = bytes(t, "z") else { return nil }
                    seed = d + z
                }
                return DecapsulationCase(name: name(file, g, t, " \(format) \(reason)"), keyFormat: format, seed: seed,
                                         ek: ek, dk: dk, c: c, k: k, valid: reason == "valid decapsulation")
            }
        }
    }

    // MARK: key checks (VAL): testPassed for ek (§7.2 modulus check) and dk (§7.3 hash check)

    struct KeyCheckCase: CustomTestStringConvertible, Sendable {
        let name: String
        let key: [UInt8]
        let passes: Bool
        var testDescription: String { name }
    }

    static func keyCheckCases(function: String, field: String) -> [KeyCheckCase] {
        tests(encapDecapFile, function: function).compactMap { g, t in
            guard let key = bytes(t, field), let passed = t["testPassed"] as? Bool else { return nil }
            return KeyCheckCase(name: name(encapDecapFile, g, t, " \(function) expect \(passed) (\(t["reason"] ?? ""))"),
                                key: key, passes: passed)
        }
    }

    // MARK: pq-kat (post-quantum-cryptography/KAT format)

    struct PQKATCase: CustomTestStringConvertible, Sendable {
        let name: String
        let d: [UInt8], z: [UInt8], msg: [UInt8], pk: [UInt8], sk: [UInt8]
        let ct: [UInt8], ss: [UInt8], ctN: [UInt8], ssN: [UInt8]
        var testDescription: String { name }
    }

    static func pqKATCases() -> [PQKATCase] {
        guard let text = try? KATFile.text(pqKATFile) else { return [] }
        // Records are not separated by blank lines: each starts at its `count = ` line.
        var records: [[String: String]] = []
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if key == "count" { records.append([:]) }
            guard !records.isEmpty, records[records.count - 1][key] == nil else { return [] }  // malformed
            records[records.count - 1][key] = value
        }
        return records.compactMap { f in
            func b(_ key: String) -> [UInt8]? { f[key].flatMap(Hex.decode) }
            guard let count = f["count"], let d = b("d"), let z = b("z"), let msg = b("msg"), let pk = b("pk"),
                  let sk = b("sk"), let ct = b("ct"), let ss = b("ss"), let ctN = b("ct_n"), let ssN = b("ss_n")
            else { return nil }
            return PQKATCase(name: "kat_MLKEM_768 count=\(count)", d: d, z: z, msg: msg, pk: pk, sk: sk,
                             ct: ct, ss: ss, ctN: ctN, ssN: ssN)
        }
    }

    // MARK: accumulated (Go crypto/internal/fips140test TestAccumulated, FIPS 203 final)

    static func accumulatedTarget(_ iterations: Int) throws -> String {
        let root = try JSONSerialization.jsonObject(with: try KATFile.data("accumulated/accumulated-targets.json")) as? [String: Any]
        let entry = try #require(root?["ML-KEM-768"] as? [String: Any])
        let digests = try #require(entry["digests"] as? [String: String])
        return try #require(digests[String(iterations)])
    }
}
