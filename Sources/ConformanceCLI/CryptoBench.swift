import Foundation
import Primitives

/// `conformance bench crypto`: ops/s and MB/s of the pure-Swift primitives, with `openssl speed`
/// run in the same process run for a side-by-side figure (OpenSSL uses the CPU's SHA/AES/CLMUL
/// instructions and assembly, so it is the ceiling, not the target).
enum CryptoBench {
    static func opsPerSecond(_ body: () -> Void) -> Double { 1 / BenchCommand.measure(minSeconds: 1.5, body) }

    static func run() {
        let msg = [UInt8](repeating: 0x5a, count: 64)
        let ed = try! Ed25519.PrivateKey(seed: [UInt8](repeating: 1, count: 32))
        let edSig = ed.signature(for: msg)
        var ok = true
        let edSign = opsPerSecond { _ = ed.signature(for: msg) }
        let edVerify = opsPerSecond { ok = ok && ed.publicKey.isValidSignature(edSig, for: msg) }
        print(String(format: "ed25519 sign:        %10.0f /s", edSign))
        print(String(format: "ed25519 verify:      %10.0f /s", edVerify))

        let seed = [UInt8](repeating: 2, count: 32)
        let mk = try! MLDSA65.PrivateKey(seed: seed)
        let mSig = try! mk.deterministicSignature(for: msg)
        let pkBytes = mk.publicKey.rawRepresentation
        let mKeygen = opsPerSecond { _ = try! MLDSA65.PrivateKey(seed: seed) }
        let mSign = opsPerSecond { _ = try! mk.deterministicSignature(for: msg) }
        let mVerifyParsed = opsPerSecond { ok = ok && mk.publicKey.isValidSignature(mSig, for: msg) }
        let mVerifyBytes = opsPerSecond { ok = ok && (try! MLDSA65.PublicKey(rawRepresentation: pkBytes)).isValidSignature(mSig, for: msg) }
        print(String(format: "ml-dsa-65 keygen:    %10.0f /s", mKeygen))
        print(String(format: "ml-dsa-65 sign:      %10.0f /s (deterministic)", mSign))
        print(String(format: "ml-dsa-65 verify:    %10.0f /s (key parsed once) / %.0f /s (key parsed from bytes each time)", mVerifyParsed, mVerifyBytes))

        let hk = try! HybridSignature.PrivateKey(ed25519Seed: seed, mldsaSeed: seed)
        let hSig = hk.signature(for: msg)
        let hVerify = opsPerSecond { ok = ok && hk.publicKey.isValidSignature(hSig, for: msg) }
        print(String(format: "hybrid verify:       %10.0f /s", hVerify))

        let big = [UInt8](repeating: 0x61, count: 16384)
        var sink: UInt8 = 0
        let sha512 = Double(big.count) / BenchCommand.measure { sink ^= SHA512.hash(big)[0] } / 1e6
        let key = [UInt8](repeating: 3, count: 32), nonce = [UInt8](repeating: 4, count: 12)
        let gcm = Double(big.count) / BenchCommand.measure { sink ^= (try! AES256GCM.seal(big, key: key, nonce: nonce)).tag[0] } / 1e6
        print(String(format: "sha512 16 KiB:       %10.1f MB/s", sha512))
        print(String(format: "aes-256-gcm 16 KiB:  %10.1f MB/s (seal)", gcm))
        if !ok || sink == 0x42 { print("(sink)") }

        print("-- openssl speed, same run:")
        let commands = ["openssl speed -seconds 1 ed25519 2>/dev/null | tail -n 2",
                        "openssl speed -seconds 1 -bytes 16384 -evp sha512 2>/dev/null | tail -n 1",
                        "openssl speed -seconds 1 -bytes 16384 -evp aes-256-gcm 2>/dev/null | tail -n 1",
                        "openssl speed -seconds 1 mldsa65 2>&1 | tail -n 2"]
        for c in commands {
            if let out = BenchCommand.shell(c), !out.isEmpty { print(out.trimmingCharacters(in: .newlines)) } else { print("(\(c.split(separator: " ").prefix(5).joined(separator: " ")): not available)") }
        }
    }
}
