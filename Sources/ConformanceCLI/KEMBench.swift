import Foundation
import Primitives
import Vectors
#if canImport(Glibc)
import Glibc
#endif

/// `conformance bench kem`: ops/s of X25519, ML-KEM-768, X-Wing and the DiscoveryBox seal and open, with `openssl speed
/// ecdhx25519` run in the same process run for the X25519 ratio. OpenSSL 3.0 has no ML-KEM
/// (it arrived in 3.5), so the ML-KEM and X-Wing figures have no OpenSSL counterpart here.
///
/// Rates are per second of this thread's CPU time, as `openssl speed` divides by user CPU time
/// unless given `-elapsed`: on a shared machine wall-clock rates fall with the load, and the
/// ratio would compare a loaded run with an unloaded one.
enum KEMBench {
    static func cpuSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Calls per CPU-second of `body`: best of three batches of at least 0.5 CPU-seconds each.
    static func ops(_ body: () -> Void) -> Double {
        var best = 0.0
        for _ in 0..<3 {
            var calls = 0
            let start = cpuSeconds()
            var elapsed = 0.0
            repeat {
                body()
                calls += 1
                elapsed = cpuSeconds() - start
            } while elapsed < 0.5
            best = max(best, Double(calls) / elapsed)
        }
        return best
    }

    static func run() {
        var sink: UInt8 = 0

        // X25519: derive = one variable-base ladder; keygen = the fixed-base (Edwards table) path.
        let a = try! X25519.PrivateKey(rawRepresentation: [UInt8](repeating: 5, count: 32))
        let b = try! X25519.PrivateKey(rawRepresentation: [UInt8](repeating: 6, count: 32))
        let xDerive = ops { sink ^= a.sharedSecretUnchecked(with: b.publicKey)[0] }
        let xKeygen = ops { sink ^= (try! X25519.PrivateKey(rawRepresentation: [UInt8](repeating: sink, count: 32))).publicKey.rawRepresentation[0] }
        print(String(format: "x25519 derive:           %10.0f /s (Montgomery ladder)", xDerive))
        print(String(format: "x25519 keygen:           %10.0f /s (fixed base via the Ed25519 table)", xKeygen))

        // ML-KEM-768.
        let seed = [UInt8](repeating: 7, count: 64), m = [UInt8](repeating: 8, count: 32)
        let mk = try! MLKEM768.PrivateKey(seed: seed)
        let ekBytes = mk.publicKey.rawRepresentation
        let mct = try! mk.publicKey.encapsulate(randomness: m).ciphertext
        let mKeygen = ops { sink ^= (try! MLKEM768.PrivateKey(seed: seed)).publicKey.rawRepresentation[0] }
        let mEncaps = ops { sink ^= (try! mk.publicKey.encapsulate(randomness: m)).ciphertext[0] }
        let mEncapsBytes = ops { sink ^= (try! (try! MLKEM768.PublicKey(rawRepresentation: ekBytes)).encapsulate(randomness: m)).ciphertext[0] }
        let mDecaps = ops { sink ^= (try! mk.decapsulate(mct))[0] }
        print(String(format: "ml-kem-768 keygen:       %10.0f /s (from d‖z)", mKeygen))
        print(String(format: "ml-kem-768 encaps:       %10.0f /s (key parsed once) / %.0f /s (ek parsed and checked each time)", mEncaps, mEncapsBytes))
        print(String(format: "ml-kem-768 decaps:       %10.0f /s (implicit-rejection path always runs)", mDecaps))

        // X-Wing.
        let xwSeed = [UInt8](repeating: 9, count: 32), eseed = [UInt8](repeating: 10, count: 64)
        let xw = try! XWing.PrivateKey(seed: xwSeed)
        let xwct = try! xw.publicKey.encapsulate(seed: eseed).ciphertext
        let wKeygen = ops { sink ^= (try! XWing.PrivateKey(seed: xwSeed)).publicKey.rawRepresentation[0] }
        let wEncaps = ops { sink ^= (try! xw.publicKey.encapsulate(seed: eseed)).sharedSecret[0] }
        let wDecaps = ops { sink ^= (try! xw.decapsulate(xwct))[0] }
        print(String(format: "x-wing keygen:           %10.0f /s (seed expansion + ML-KEM keygen + X25519 base)", wKeygen))
        print(String(format: "x-wing encaps:           %10.0f /s (key parsed once)", wEncaps))
        print(String(format: "x-wing decaps:           %10.0f /s (expanded key cached)", wDecaps))

        // The DiscoveryBox (SPEC.md §14.3): HPKE SealBase/OpenBase with X-Wing, HKDF-SHA256 and
        // AES-256-GCM around a 256-byte plaintext (a sign-in request is about that size plus its
        // certificate). Seal parses and checks the recipient key each time, as a sibling sealing to
        // a stranger's request key must; open uses the cached expanded private key.
        let plain = [UInt8](repeating: 11, count: 256)
        let pkBytes = xw.publicKey.rawRepresentation
        let box = try! DiscoveryBox.sealedBytes(plain, to: pkBytes, direction: .request, eseed: eseed)
        let bSeal = ops { sink ^= (try! DiscoveryBox.sealedBytes(plain, to: pkBytes, direction: .request, eseed: eseed))[0] }
        let bOpen = ops { sink ^= (try! DiscoveryBox.open(box, seed: xwSeed, direction: .request)).first ?? 0 }
        print(String(format: "discoverybox seal:       %10.0f /s (256-byte plaintext; key parsed and checked each time)", bSeal))
        print(String(format: "discoverybox open:       %10.0f /s (256-byte plaintext; X-Wing key expanded from its seed each time)", bOpen))
        if sink == 0x42 { print("(sink)") }

        print("-- openssl speed (user CPU time), same run:")
        let x25519Command = "openssl speed -seconds 2 ecdhx25519 2>/dev/null | tail -n 1"
        if let out = BenchCommand.shell(x25519Command), !out.isEmpty {
            print(out.trimmingCharacters(in: .newlines))
            // "253 bits ecdh (X25519)   0.0000s  22073.7": the last field is ops/s.
            if let last = out.split(whereSeparator: \.isWhitespace).last, let theirs = Double(last), theirs > 0 {
                print(String(format: "x25519 derive ratio (ours / openssl): %.2f", xDerive / theirs))
            }
        } else {
            print("(openssl speed ecdhx25519: not available)")
        }
        let version = BenchCommand.shell("openssl version")?.trimmingCharacters(in: .newlines) ?? "openssl"
        if let out = BenchCommand.shell("openssl speed -seconds 1 mlkem768 2>/dev/null | tail -n 1"), !out.isEmpty {
            print(out.trimmingCharacters(in: .newlines))
        } else {
            print("(no ML-KEM / X-Wing figure from openssl: \(version) has no ML-KEM, which arrived in OpenSSL 3.5)")
        }
    }
}
