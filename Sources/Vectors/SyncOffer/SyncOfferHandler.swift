import Primitives

/// The reference `sync_offer` format as the runner drives it (SPEC.md §7.9).
public struct SyncOfferHandler: FormatHandler {
    public init() {}

    public var format: String { "sync_offer" }
    public var ops: [String] {
        ["encode_request", "decode_request", "encode_offer", "decode_offer", "encode_ack", "decode_ack",
         "encode_snapshot", "decode_snapshot", "seal", "receive", "handle_request", "import", "schedule",
         "wake_class", "relay_wake"]
    }

    public func generate() throws -> VectorFile { try SyncOfferVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        switch op {
        case "encode_request": return SyncOfferOutput.cbor(try Self.request(input).encoded).json
        case "decode_request": return SyncOfferOutput.request(try SyncRequest.decode(try Self.cbor(input))).json
        case "encode_offer": return SyncOfferOutput.cbor(try Self.offer(input).encoded).json
        case "decode_offer": return SyncOfferOutput.offer(try SyncOffer.decode(try Self.cbor(input))).json
        case "encode_ack": return SyncOfferOutput.cbor(try Self.ack(input).encoded).json
        case "decode_ack": return SyncOfferOutput.ack(try SyncAck.decode(try Self.cbor(input))).json
        case "encode_snapshot": return SyncOfferOutput.cbor(try SyncSnapshot.parse(input, path: "").encoded).json
        case "decode_snapshot": return try SyncSnapshot.decode(try Self.cbor(input)).tree.json
        case "seal": return try seal(input)
        case "receive": return try receive(input)
        case "handle_request": return try handleRequest(input)
        case "import": return try importOp(input)
        case "schedule": return try schedule(input)
        case "wake_class": return try wakeClass(input)
        case "relay_wake": return try relayWake(input)
        default: throw WireError(.unknownOp, "sync_offer has no op \(op)", field: "op")
        }
    }

    // MARK: input readers (SPEC.md §2.2, §7.9)

    /// The one seam where this format reads integers and hex from op inputs. Strict by §2.2; each
    /// mutant models a stock JSON or hex library's default.
    static func integerText(_ v: JSONValue, path: String) throws(WireError) -> String {
        func bad() -> WireError { WireError(.inputBadType, "expected an integer (a JSON integer or a canonical decimal string)", field: path) }
        switch v {
        case .string(let s):
            if Mutant.on(.syncDecimalStringsRefused) { throw bad() }
            if Mutant.on(.syncDecimalStringsLenient) {
                // What Int(…) after trimming, or Python's int(), lets through: spaces, +, leading zeros, _.
                var t = Substring(s.filter { $0 != "_" && $0 != " " })
                if t.hasPrefix("+") { t = t.dropFirst() }
                let neg = t.hasPrefix("-")
                if neg { t = t.dropFirst() }
                let digits = t.drop { $0 == "0" }
                guard !t.isEmpty, t.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw bad() }
                return (neg && !digits.isEmpty ? "-" : "") + (digits.isEmpty ? "0" : String(digits))
            }
            guard let t = v.integerText else { throw bad() }
            return t
        case .number(let n):
            if Mutant.on(.syncIntegersAsDoubles) || (Mutant.on(.syncIntegralFloatsAccepted) && v.integerText == nil) {
                // A JSON library that reads every number as a double.
                guard let d = Double(n), d == d.rounded(), abs(d) < 0x1p64 else { throw bad() }
                return d < 0 ? String(Int64(d)) : String(UInt64(d))
            }
            guard let t = v.integerText else { throw bad() }
            return t
        default:
            throw bad()
        }
    }

    static func uint64(_ v: JSONValue, path: String) throws(WireError) -> UInt64 {
        InputRecorder.note(path, .uint64, v)
        let t = try integerText(v, path: path)
        guard let n = t == "-0" ? 0 : UInt64(t) else { throw WireError(.inputBadType, "expected an integer 0 … 2^64 − 1", field: path) }
        return n
    }

    static func int64(_ v: JSONValue, path: String) throws(WireError) -> Int64 {
        InputRecorder.note(path, .int64, v)
        guard let n = Int64(try integerText(v, path: path)) else { throw WireError(.inputBadType, "expected an integer −2^63 … 2^63 − 1", field: path) }
        return n
    }

    static func hex(_ v: JSONValue, path: String, length: Int? = nil) throws(WireError) -> [UInt8] {
        if Mutant.on(.syncHexLowercaseOnly), let s = v.stringValue, s.utf8.contains(where: { (0x41...0x46).contains($0) }) {
            throw WireError(.inputBadValue, "not lowercase hex", field: path)
        }
        return try Input.bytes(v, path: path, length: length)
    }

    /// An optional member (`name?`): nil when absent; `null` is a value of the wrong type ([R7.9-4]).
    static func optional(_ v: JSONValue, _ name: String, path: String) throws(WireError) -> JSONValue? {
        let m = try Input.optionalMember(v, name, path: path)
        if Mutant.on(.syncNullInputAbsent), m == .null { return nil }
        return m
    }

    static func cbor(_ input: JSONValue) throws(WireError) -> [UInt8] {
        try hex(try Input.member(input, "cbor", path: ""), path: "cbor")
    }

    static func bytes(_ input: JSONValue, _ name: String, length: Int?, path: String = "") throws(WireError) -> [UInt8] {
        try hex(try Input.member(input, name, path: path), path: Input.join(path, name), length: length)
    }

    static func unsigned(_ input: JSONValue, _ name: String, path: String = "") throws(WireError) -> UInt64 {
        try uint64(try Input.member(input, name, path: path), path: Input.join(path, name))
    }

    static func optionalBytes(_ input: JSONValue, _ name: String) throws(WireError) -> [UInt8]? {
        guard let v = try optional(input, name, path: "") else { return nil }
        return try hex(v, path: name)
    }

    static func request(_ v: JSONValue) throws(WireError) -> SyncRequest {
        SyncRequest(requestID: try bytes(v, "request_id", length: SyncRequest.requestIDByteCount),
                    replyPubkey: try bytes(v, "reply_pubkey", length: SyncRequest.replyPubkeyByteCount),
                    timestampMs: try unsigned(v, "timestamp_ms"))
    }

    static func offer(_ v: JSONValue) throws(WireError) -> SyncOffer {
        SyncOffer(blobID: try bytes(v, "blob_id", length: SyncOffer.blobIDByteCount),
                  key: try bytes(v, "key", length: AES256GCM.keyByteCount),
                  nonce: try bytes(v, "nonce", length: AES256GCM.nonceByteCount),
                  sha256: try bytes(v, "sha256", length: SHA256.byteCount),
                  sizeBytes: try unsigned(v, "size_bytes"))
    }

    static func ack(_ v: JSONValue) throws(WireError) -> SyncAck {
        let id = try bytes(v, "request_id", length: SyncRequest.requestIDByteCount)
        return SyncAck(requestID: id, ok: try Input.bool(try Input.member(v, "ok", path: ""), path: "ok"))
    }

    // MARK: ops

    func seal(_ input: JSONValue) throws(WireError) -> JSONValue {
        let snapshot = try SyncSnapshot.parse(try Input.member(input, "snapshot", path: ""), path: "snapshot")
        let key = try Self.bytes(input, "key", length: AES256GCM.keyByteCount)
        let nonce = try Self.bytes(input, "nonce", length: AES256GCM.nonceByteCount)
        let blobID = try Self.bytes(input, "blob_id", length: SyncOffer.blobIDByteCount)
        let plaintext = snapshot.encoded
        let blob = try SyncBlob.seal(plaintext, key: key, nonce: nonce)
        return SyncOfferOutput.sealed(plaintext: plaintext, blob: blob, offer: SyncBlob.offer(for: blob, blobID: blobID, key: key, nonce: nonce)).json
    }

    func receive(_ input: JSONValue) throws(WireError) -> JSONValue { try receiveTree(input).json }

    /// The ops whose output the facet cases keep as typed vector data (bytes as bytes, not as
    /// their hex text), as every other case of the file does.
    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR {
        switch op {
        case "receive": return try receiveTree(input)
        case "schedule":
            let t = try Self.int64(try Input.member(input, "elapsed_ms", path: ""), path: "elapsed_ms")
            guard t >= 0 else { throw WireError(.inputBadValue, "elapsed time is never negative", field: "elapsed_ms") }
            return SyncOfferOutput.schedule(elapsedMs: t)
        default: return CBOR(json: try run(op: op, input: input))
        }
    }

    func receiveTree(_ input: JSONValue) throws(WireError) -> CBOR {
        let offer = try Self.bytes(input, "offer", length: nil)
        let requestID = try Self.bytes(input, "request_id", length: SyncRequest.requestIDByteCount)
        let blob = try Self.bytes(input, "blob", length: nil)
        let own = try Self.optionalBytes(input, "own_user_id_hash")
        let sender = try Self.bytes(input, "sender_user_id_hash", length: nil)
        let capJSON = try Self.optional(input, "max_blob_bytes", path: "")
        let cap = try capJSON.map { (v) throws(WireError) in try Self.uint64(v, path: "max_blob_bytes") } ?? SyncBlob.syncMaxBlobBytes
        let o = try SyncReceiver.receive(offer: offer, requestID: requestID, blob: blob, ownUserIDHash: own, senderUserIDHash: sender, maxBlobBytes: cap)
        return SyncOfferOutput.received(o)
    }

    func handleRequest(_ input: JSONValue) throws(WireError) -> JSONValue {
        let request = try Self.bytes(input, "request", length: nil)
        let own = try Self.optionalBytes(input, "own_user_id_hash")
        let sender = try Self.bytes(input, "sender_user_id_hash", length: nil)
        let r = try SiblingRequestHandler.handle(request: request, ownUserIDHash: own, senderUserIDHash: sender)
        return SyncOfferOutput.handled(r.result, r.request).json
    }

    func importOp(_ input: JSONValue) throws(WireError) -> JSONValue {
        var store = try SyncSnapshot.parse(try Input.member(input, "store", path: ""), path: "store")
        let list = try Input.array(try Input.member(input, "snapshots", path: ""), path: "snapshots")
        var inserted: [Int] = []
        for (i, s) in list.enumerated() {
            inserted.append(store.importing(try SyncSnapshot.parse(s, path: "snapshots[\(i)]")))
        }
        return SyncOfferOutput.imported(store, inserted: inserted).json
    }

    func schedule(_ input: JSONValue) throws(WireError) -> JSONValue {
        let t = try Self.int64(try Input.member(input, "elapsed_ms", path: ""), path: "elapsed_ms")
        guard t >= 0 else { throw WireError(.inputBadValue, "elapsed time is never negative", field: "elapsed_ms") }
        return SyncOfferOutput.schedule(elapsedMs: t).json
    }

    func wakeClass(_ input: JSONValue) throws(WireError) -> JSONValue {
        let t = try Input.text(try Input.member(input, "payload_type", path: ""), path: "payload_type")
        return CBOR.object([("wake", .text(ResendSchedule.wakeClass(payloadType: t).rawValue))]).json
    }

    func relayWake(_ input: JSONValue) throws(WireError) -> JSONValue {
        let items = try Input.array(try Input.member(input, "events", path: ""), path: "events")
        var events: [RelayWake.Event] = []
        for (i, item) in items.enumerated() {
            let s = try Input.text(item, path: "events[\(i)]")
            guard let e = RelayWake.Event.allCases.first(where: { Array($0.rawValue.utf8) == Array(s.utf8) }) else {
                throw WireError(.inputBadValue, "an event is sync, silent or reconnect", field: "events[\(i)]")
            }
            events.append(e)
        }
        return CBOR.object([("pushes", .array(RelayWake.pushes(events).map { .unsigned(UInt64($0)) }))]).json
    }
}

/// Output shapes shared by the handler and the generator, so both write the same tree.
enum SyncOfferOutput {
    static func cbor(_ b: [UInt8]) -> CBOR { .object([("cbor", .bytes(b))]) }

    static func request(_ r: SyncRequest) -> CBOR {
        .object([("request_id", .bytes(r.requestID)), ("reply_pubkey", .bytes(r.replyPubkey)), ("timestamp_ms", .unsigned(r.timestampMs))])
    }

    static func offer(_ o: SyncOffer) -> CBOR {
        .object([("blob_id", .bytes(o.blobID)), ("key", .bytes(o.key)), ("nonce", .bytes(o.nonce)),
                 ("sha256", .bytes(o.sha256)), ("size_bytes", .unsigned(o.sizeBytes))])
    }

    static func ack(_ a: SyncAck) -> CBOR { .object([("request_id", .bytes(a.requestID)), ("ok", .bool(a.ok))]) }

    static func sealed(plaintext: [UInt8], blob: [UInt8], offer o: SyncOffer) -> CBOR {
        .object([("plaintext", .bytes(plaintext)), ("blob", .bytes(blob)), ("offer", offer(o)), ("offer_cbor", .bytes(o.encoded))])
    }

    static func received(_ o: SyncReceiver.Outcome) -> CBOR {
        .object([("result", .text(o.result.rawValue)),
                 ("reason", o.reason.map { .text($0.rawValue) } ?? .null),
                 ("ack", o.ack.map { .bytes($0.encoded) } ?? .null),
                 ("snapshot", o.snapshot?.tree ?? .null)])
    }

    static func handled(_ result: SiblingRequestHandler.Result, _ r: SyncRequest?) -> CBOR {
        .object([("result", .text(result.rawValue)),
                 ("reason", result == .dropped ? .text(ErrorCode.syncNotSameAccount.rawValue) : .null),
                 ("request", r.map(request) ?? .null)])
    }

    static func imported(_ store: SyncSnapshot, inserted: [Int]) -> CBOR {
        .object([("store", store.tree), ("inserted", .array(inserted.map { .unsigned(UInt64($0)) }))])
    }

    static func schedule(elapsedMs t: Int64) -> CBOR {
        .object([("sends", .array(ResendSchedule.due(elapsedMs: t).map { s in
                    .object([("index", .unsigned(UInt64(s.index))), ("at_ms", .unsigned(UInt64(s.atMs))), ("wake", .text(s.wake.rawValue))])
                 })),
                 ("next_at_ms", ResendSchedule.nextAtMs(elapsedMs: t).map { .unsigned(UInt64($0)) } ?? .null),
                 ("exhausted", .bool(ResendSchedule.exhausted(elapsedMs: t)))])
    }
}
