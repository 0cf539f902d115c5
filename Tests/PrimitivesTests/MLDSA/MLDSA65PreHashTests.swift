import Foundation
import Primitives
import Testing

/// The HashML-DSA pre-hash functions (FIPS 204 §5.4.1) against CPython hashlib digests, so the
/// local SHA-224 / SHA-512-family / SHA3-224/384 helpers are checked beyond the few ACVP cases.
struct MLDSA65PreHashTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let hash: String
        let abc: String
        let long: String   // message bytes 0...255, 0...43 (300 bytes)
        var testDescription: String { hash }
    }

    static let cases: [Case] = [
        Case(hash: "SHA2-224", abc: "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
             long: "0c82e586f274c06fe5393d20f3692908d3a78ff0034e4c221959f75a"),
        Case(hash: "SHA2-256", abc: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
             long: "7728ae2f2c36e2aaafbe79ca14c87ae2f89e7c88c4390ecbbf82dce88706958d"),
        Case(hash: "SHA2-384", abc: "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7",
             long: "69672aca50c4279e4cdf788380294d7655bc68c7949e273318d60817f3262cff54e8c78ceaae0853e0a7adf36f392d38"),
        Case(hash: "SHA2-512", abc: "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
             long: "f1dca2eb677b303265b0b9baff0e061202818f35c1470a69bbaa9bb66025e948d90e565e69642506c6213aef3cf9e929357a59da263deb34d1236dbdcda279b3"),
        Case(hash: "SHA2-512/224", abc: "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa",
             long: "482604d8459e2a3acfeaa168ce00427d87e67751748e4768666e318c"),
        Case(hash: "SHA2-512/256", abc: "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23",
             long: "e8c6690786f704dcd81e091a37ade62feec7150ecdf56885de3c50c01136d17c"),
        Case(hash: "SHA3-224", abc: "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf",
             long: "fc40ee40f2595a8ced1537bf5fb47d1ca83d6857007056f2b3eaee98"),
        Case(hash: "SHA3-256", abc: "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
             long: "815c06bbeb8520ce61add33a5f47bc558bf00e6361a5640c972d5d4634c58101"),
        Case(hash: "SHA3-384", abc: "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0e49be4b298d88cea927ac7f539f1edf228376d25",
             long: "47aefea93608f52318d433e3bc58bd296f9a88954a9ab47bd7e462468d59eeece908f5e861ee208a44c361831802f11e"),
        Case(hash: "SHA3-512", abc: "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
             long: "fa288fe9f54b8301e3012051fb1b275fd3f278a281ef149bb878fd322a647d3f51dc24908905550ed4883870c94f8d297f0690f8661b14d8222e9a46eebcbdf6"),
        Case(hash: "SHAKE-128", abc: "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8",
             long: "acbf138b9ceb3b4f0b2a78bf886f2f2b286af964f200f8784af97e6db5885558"),
        Case(hash: "SHAKE-256", abc: "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4",
             long: "bced6f4208dce0e6bc155ae057d0589bbfa798b46c7866d107e8d14aee3a46e9a292d82d60f77802cadfa9a46c8142a7268863fbb6f64007d6e9fd44334f0ece"),
    ]

    @Test func coversEveryAlgorithm() {
        #expect(Set(Self.cases.map(\.hash)) == Set(MLDSA65.PreHash.allCases.map(\.rawValue)))
    }

    @Test(arguments: cases)
    func digest(_ c: Case) throws {
        let hash = try #require(MLDSA65.PreHash(rawValue: c.hash))
        #expect(Hex.encode(hash.digest(Array("abc".utf8))) == c.abc)
        let long = Array(0...255) + Array(0...43).map { UInt8($0) }
        #expect(Hex.encode(hash.digest(long.map { UInt8($0) })) == c.long)
    }

    /// HashML-DSA sign / verify round trip per hash, and a pure signature is not a pre-hash one.
    @Test(arguments: MLDSA65.PreHash.allCases.map(\.rawValue))
    func preHashRoundTrip(_ name: String) throws {
        let hash = try #require(MLDSA65.PreHash(rawValue: name))
        let key = try MLDSA65.PrivateKey(seed: [UInt8](repeating: 3, count: 32))
        let message = Array("pre-hash".utf8), context = Array("ctx".utf8)
        let signature = try key.preHashSignature(for: message, context: context, hash: hash,
                                                  randomness: [UInt8](repeating: 0, count: 32))
        #expect(key.publicKey.isValidPreHashSignature(signature, for: message, context: context, hash: hash))
        #expect(!key.publicKey.isValidSignature(signature, for: message, context: context))
        #expect(!key.publicKey.isValidPreHashSignature(signature, for: message + [0], context: context, hash: hash))
        let other = hash == .sha2_256 ? MLDSA65.PreHash.sha2_512 : .sha2_256
        #expect(!key.publicKey.isValidPreHashSignature(signature, for: message, context: context, hash: other))
    }
}
