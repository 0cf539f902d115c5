/// HTTP/1.1 message syntax (RFC 9112) for the runner's client and the reference server, with the
/// caps of SPEC.md §6.13: a header section of at most 64 KiB and 100 fields, a body of at most
/// 1 MiB whether declared (`Content-Length`) or streamed (chunked, or until close). A bigger
/// answer fails without being read, so memory stays bounded whatever a service sends.
public enum HTTPWire {
    public static let maxHeaderBytes = 65_536
    public static let maxFields = 100
    public static let maxBodyBytes = 1 << 20

    package struct Head {
        package var startLine: [UInt8]
        package var fields: [HTTPField]

        package func values(_ name: String) -> [[UInt8]] { fields.filter { HTTPField.sameName($0.name, name) }.map(\.value) }
    }

    package static func isTokenChar(_ c: UInt8) -> Bool {
        switch c {
        case 0x30...0x39, 0x41...0x5a, 0x61...0x7a: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(c)
        }
    }

    /// The start line and the header fields, up to and including the empty line.
    package static func readHead(_ r: HTTPByteReader, deadline: UInt64, what: String) -> Result<Head, TransportFailure> {
        var total = 0
        var start: [UInt8] = []
        // Robustness (RFC 9112 §2.2): empty lines before the start line are skipped.
        repeat {
            switch r.readLine(maxBytes: maxHeaderBytes, deadline: deadline, what: "the \(what) line") {
            case .failure(let f): return .failure(f)
            case .success(let l): start = l; total += l.count + 2
            }
        } while start.isEmpty && total < 16
        var fields: [HTTPField] = []
        while true {
            let line: [UInt8]
            switch r.readLine(maxBytes: maxHeaderBytes, deadline: deadline, what: "the header section") {
            case .failure(let f): return .failure(f)
            case .success(let l): line = l
            }
            total += line.count + 2
            guard total <= maxHeaderBytes else { return .failure(TransportFailure(.tooLarge, "the header section exceeds \(maxHeaderBytes) bytes")) }
            if line.isEmpty { break }
            guard fields.count < maxFields else { return .failure(TransportFailure(.tooLarge, "more than \(maxFields) header fields")) }
            guard line[0] != 0x20, line[0] != 0x09 else { return .failure(TransportFailure(.malformed, "obsolete line folding in the header section")) }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0, line[..<colon].allSatisfy(isTokenChar) else {
                return .failure(TransportFailure(.malformed, "not a header field: \(show(line))"))
            }
            var value = Array(line[(colon + 1)...])
            while let f = value.first, f == 0x20 || f == 0x09 { value.removeFirst() }
            while let l = value.last, l == 0x20 || l == 0x09 { value.removeLast() }
            guard !value.contains(where: { $0 == 0x00 || $0 == 0x0d || $0 == 0x0a }) else {
                return .failure(TransportFailure(.malformed, "a control character in header \(String(decoding: line[..<colon], as: UTF8.self))"))
            }
            fields.append(HTTPField(name: String(decoding: line[..<colon], as: UTF8.self), value: value))
        }
        return .success(Head(startLine: start, fields: fields))
    }

    /// How a message's body is delimited (RFC 9112 §6.3).
    package enum Framing { case none, length(Int), chunked, untilClose }

    package static func framing(_ head: Head, isResponse: Bool, status: Int = 0, requestMethod: String = "") -> Result<Framing, TransportFailure> {
        if isResponse && (requestMethod == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304) { return .success(.none) }
        let te = head.values("Transfer-Encoding")
        let cl = head.values("Content-Length")
        if !te.isEmpty {
            let codings = codings(te)
            if !isResponse && !cl.isEmpty { return .failure(TransportFailure(.malformed, "both Transfer-Encoding and Content-Length")) }
            if codings.last == "chunked" { return .success(.chunked) }
            if !isResponse { return .failure(TransportFailure(.malformed, "a request whose final transfer coding is not chunked")) }
            return .success(.untilClose)
        }
        if !cl.isEmpty {
            let texts = Set(cl.flatMap { $0.split(separator: UInt8(ascii: ",")) }.map { String(decoding: $0, as: UTF8.self).trimmingOWS })
            guard texts.count == 1, let t = texts.first, !t.isEmpty, t.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return .failure(TransportFailure(.malformed, "Content-Length is not one decimal number: \(cl.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", "))"))
            }
            guard t.utf8.count <= 18, let n = Int(t), n <= maxBodyBytes else {
                return .failure(TransportFailure(.tooLarge, "the body declares Content-Length: \(t), above the cap of \(maxBodyBytes) bytes (not read)"))
            }
            return .success(.length(n))
        }
        return .success(isResponse ? .untilClose : .none)
    }

    /// The transfer codings of every `Transfer-Encoding` field line, in order: one list (RFC 9110
    /// §5.3), names case-insensitive (RFC 9112 §7), empty list elements ignored (RFC 9110 §5.6.1).
    package static func codings(_ lines: [[UInt8]]) -> [String] {
        lines.flatMap { $0.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) }
            .map { String(decoding: $0, as: UTF8.self).trimmingOWS.lowercased() }.filter { !$0.isEmpty }
    }

    package static func readBody(_ r: HTTPByteReader, _ framing: Framing, deadline: UInt64) -> Result<[UInt8], TransportFailure> {
        switch framing {
        case .none: return .success([])
        case .length(let n): return r.read(n, deadline: deadline, what: "the body")
        case .untilClose: return r.readToEOF(cap: maxBodyBytes, deadline: deadline, what: "the body")
        case .chunked: return readChunked(r, deadline: deadline)
        }
    }

    /// chunk-size [; ext] CRLF data CRLF … 0 CRLF trailers CRLF, at most `maxBodyBytes` of data.
    package static func readChunked(_ r: HTTPByteReader, deadline: UInt64) -> Result<[UInt8], TransportFailure> {
        var body: [UInt8] = []
        while true {
            let line: [UInt8]
            switch r.readLine(maxBytes: 4096, deadline: deadline, what: "a chunk-size line") {
            case .failure(let f): return .failure(f)
            case .success(let l): line = l
            }
            let sizeText = line.prefix { $0 != UInt8(ascii: ";") && $0 != 0x20 && $0 != 0x09 }
            // chunk-size = 1*HEXDIG (RFC 9112 §7.1): Swift's Int(_:radix:) would also take "+1a".
            guard !sizeText.isEmpty, sizeText.count <= 16, sizeText.allSatisfy({ $0.isHexDigitASCII }),
                  let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16), size >= 0 else {
                return .failure(TransportFailure(.malformed, "not a chunk size: \(show(line))"))
            }
            if size == 0 { break }
            guard body.count + size <= maxBodyBytes else {
                return .failure(TransportFailure(.tooLarge, "the chunked body exceeds the cap of \(maxBodyBytes) bytes (reading stopped after \(body.count))"))
            }
            switch r.read(size, deadline: deadline, what: "a chunk") {
            case .failure(let f): return .failure(f)
            case .success(let d): body += d
            }
            switch r.readLine(maxBytes: 0, deadline: deadline, what: "the end of a chunk") {
            case .failure(let f): return .failure(f.kind == .tooLarge ? TransportFailure(.malformed, "chunk data longer than its size") : f)
            case .success: break
            }
        }
        var trailers = 0
        while true {
            switch r.readLine(maxBytes: maxHeaderBytes, deadline: deadline, what: "the chunked trailer") {
            case .failure(let f): return .failure(f)
            case .success(let l):
                if l.isEmpty { return .success(body) }
                trailers += l.count
                guard trailers <= maxHeaderBytes else { return .failure(TransportFailure(.tooLarge, "the trailer section exceeds \(maxHeaderBytes) bytes")) }
            }
        }
    }

    // MARK: - Writing

    package static func serialize(_ req: HTTPRequest, close: Bool) -> Result<[UInt8], TransportFailure> {
        guard !req.method.isEmpty, req.method.utf8.allSatisfy(isTokenChar) else { return .failure(TransportFailure(.malformed, "a request method that is not a token: \(req.method)")) }
        guard !req.target.isEmpty, !req.target.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7f }) else {
            return .failure(TransportFailure(.malformed, "a request target with spaces or controls: \(req.target)"))
        }
        var out = Array("\(req.method) \(req.target) HTTP/1.1\r\n".utf8)
        for f in req.headers {
            guard !f.value.contains(where: { $0 == 0x0d || $0 == 0x0a || $0 == 0 }) else {
                return .failure(TransportFailure(.malformed, "a header value with CR, LF or NUL (\(f.name))"))
            }
            out += Array(f.name.utf8) + Array(": ".utf8) + f.value + [0x0d, 0x0a]
        }
        if !req.body.isEmpty || ["POST", "PUT", "PATCH"].contains(req.method) { out += Array("Content-Length: \(req.body.count)\r\n".utf8) }
        if close { out += Array("Connection: close\r\n".utf8) }
        out += [0x0d, 0x0a]
        out += req.body
        return .success(out)
    }

    package static func serialize(_ res: HTTPResponse, close: Bool, headOnly: Bool = false) -> [UInt8] {
        var out = Array("HTTP/1.1 \(res.status) \(res.reason)\r\n".utf8)
        for f in res.headers where !HTTPField.sameName(f.name, "Content-Length") && !HTTPField.sameName(f.name, "Connection") {
            out += Array(f.name.utf8) + Array(": ".utf8) + f.value + [0x0d, 0x0a]
        }
        let bodyless = res.status == 204 || res.status == 304 || (100..<200).contains(res.status)
        if !bodyless { out += Array("Content-Length: \(res.body.count)\r\n".utf8) }
        if close { out += Array("Connection: close\r\n".utf8) }
        out += [0x0d, 0x0a]
        if !bodyless && !headOnly { out += res.body }
        return out
    }

    package static func show(_ bytes: [UInt8]) -> String {
        let s = String(decoding: bytes.prefix(80), as: UTF8.self).replacingControls
        return "\"\(s)\(bytes.count > 80 ? "…" : "")\""
    }
}

extension String {
    /// Without the spaces and tabs around it (RFC 9110 §5.6.3's OWS).
    var trimmingOWS: String {
        var u = Substring(self)
        while u.first == " " || u.first == "\t" { u = u.dropFirst() }
        while u.last == " " || u.last == "\t" { u = u.dropLast() }
        return String(u)
    }

    /// Control characters shown as `\xNN`, so garbage prints on one line.
    var replacingControls: String {
        var out = ""
        for u in unicodeScalars {
            if u.value < 0x20 || u.value == 0x7f {
                let h = String(u.value, radix: 16)
                out += "\\x" + (h.count == 1 ? "0" + h : h)
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

extension UInt8 {
    var isHexDigitASCII: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
