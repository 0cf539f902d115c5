/// The framing battery both HTTP formats play (SPEC.md [R13.1-11], [R13.1-12]): how a service
/// reads a request off the wire, which only a raw step can show, since the runner frames every
/// request step itself with one right `Content-Length`. Each faulty framing is the step's first
/// request, followed on the same connection by a request the service would answer: a service
/// that reads past the fault, or keeps the connection, sends a second answer and fails `closes`.
package enum HTTPFraming {
    /// A route of the service that reads a JSON body, and what it answers.
    package struct Route {
        package var path: String
        /// A body the route takes (at least 12 bytes: it is cut into a chunk of 10 and the rest).
        package var good: String
        package var goodAnswer: CBOR
        /// Steps after a good body, showing it was read as sent.
        package var after: [CBOR]
        /// What an empty body and a body that is not JSON get.
        package var emptyStatus: Int
        package var badStatus: Int
        /// A request the service answers on its own (no body), and its status: the second request
        /// on one connection.
        package var next: String
        package var nextStatus: Int
    }

    package struct Case {
        package var name: String
        package var what: String
        package var rules: [String]
        package var twoFaults: Bool
        package var steps: [CBOR]
    }

    typealias B = ScenarioBuilder

    static func head(_ path: String, version: String = "HTTP/1.1", _ fields: [String]) -> String {
        "POST \(path) \(version)\r\nHost: conformance\r\nContent-Type: application/json\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n"
    }

    static func hex(_ n: Int, upper: Bool) -> String { upper ? String(n, radix: 16).uppercased() : String(n, radix: 16) }

    /// The body in two chunks, of 10 bytes (size `a` or `A`) and the rest, then the last chunk.
    static func chunked(_ body: String, upper: Bool = false, extensions: Bool = false, trailer: Bool = false) -> String {
        let u = Array(body.utf8)
        let first = String(decoding: u[..<10], as: UTF8.self), rest = String(decoding: u[10...], as: UTF8.self)
        return "\(hex(10, upper: upper))\(extensions ? ";probe=1" : "")\r\n\(first)\r\n\(hex(u.count - 10, upper: upper))\(extensions ? ";probe" : "")\r\n\(rest)\r\n0\r\n"
            + (trailer ? "X-Probe: 1\r\n" : "") + "\r\n"
    }

    package static func cases(_ r: Route) -> [Case] {
        let n = r.good.utf8.count
        let next = r.next
        let nextAnswer = B.expect(r.nextStatus)
        var out: [Case] = []
        func taken(_ name: String, _ what: String, _ send: String, rules: [String] = ["R13.1-11"]) {
            out.append(Case(name: name, what: what + ": read as the same body sent with a Content-Length", rules: rules, twoFaults: false,
                            steps: [B.raw("raw", send, [r.goodAnswer])] + r.after))
        }
        taken("chunked", "the body chunked (sizes a and \(hex(n - 10, upper: false)))", head(r.path, ["Transfer-Encoding: chunked"]) + chunked(r.good))
        taken("chunked-uppercase-hex", "chunk sizes in uppercase hex (A)", head(r.path, ["Transfer-Encoding: chunked"]) + chunked(r.good, upper: true))
        taken("chunked-extensions-trailer", "chunk extensions (ignored) and a trailer field (read and ignored)",
              head(r.path, ["Transfer-Encoding: chunked"]) + chunked(r.good, extensions: true, trailer: true))
        taken("chunked-coding-case", "the coding written Chunked (coding names are case-insensitive, RFC 9112 §7)", head(r.path, ["Transfer-Encoding: Chunked"]) + chunked(r.good))
        taken("content-length-ows", "a Content-Length with spaces and a tab around its value (not part of it, R13.1-8)",
              head(r.path, ["Content-Length:  \(n) \t"]) + r.good, rules: ["R13.1-11", "R13.1-8"])
        out.append(Case(name: "chunked-empty", what: "a chunked body of the last chunk alone: the empty body, \(r.emptyStatus)", rules: ["R13.1-11"], twoFaults: false,
                        steps: [B.raw("raw", head(r.path, ["Transfer-Encoding: chunked"]) + "0\r\n\r\n", [B.expect(r.emptyStatus)])]))
        out.append(Case(name: "chunked-not-json", what: "a chunked body that is not JSON: judged as that body is, \(r.badStatus)", rules: ["R13.1-11", "R13.1-6"], twoFaults: false,
                        steps: [B.raw("raw", head(r.path, ["Transfer-Encoding: chunked"]) + chunked("{not json} but long"), [B.expect(r.badStatus)])]))

        /// A faulty framing: the one answer, then the connection closes before the next request.
        func refused(_ name: String, _ what: String, _ status: Int, _ send: String, twoFaults: Bool = false) {
            out.append(Case(name: name, what: "\(what): \(status), and the connection closes (the request after it is not answered)", rules: ["R13.1-11"],
                            twoFaults: twoFaults, steps: [B.raw("raw", send + next, [B.expect(status)], closes: true)]))
        }
        let body = chunked(r.good)
        refused("te-http10", "an HTTP/1.0 request with Transfer-Encoding: chunked", 400, head(r.path, version: "HTTP/1.0", ["Transfer-Encoding: chunked"]) + body)
        refused("te-and-content-length", "Transfer-Encoding: chunked and a Content-Length of the chunked bytes", 400,
                head(r.path, ["Transfer-Encoding: chunked", "Content-Length: \(body.utf8.count)"]) + body)
        refused("te-gzip", "Transfer-Encoding: gzip (the last coding is not chunked)", 400, head(r.path, ["Transfer-Encoding: gzip"]) + body)
        refused("te-chunked-gzip", "Transfer-Encoding: chunked, gzip (the last coding is not chunked)", 400, head(r.path, ["Transfer-Encoding: chunked, gzip"]) + body)
        refused("te-gzip-chunked", "Transfer-Encoding: gzip, chunked (a coding the services do not decode)", 501, head(r.path, ["Transfer-Encoding: gzip, chunked"]) + body)
        refused("te-two-lines", "Transfer-Encoding: gzip, then a second line chunked (one list: gzip, chunked)", 501,
                head(r.path, ["Transfer-Encoding: gzip", "Transfer-Encoding: chunked"]) + body)
        refused("te-gzip-chunked-and-content-length", "Transfer-Encoding: gzip, chunked and a Content-Length (both present is checked before the coding)", 400,
                head(r.path, ["Transfer-Encoding: gzip, chunked", "Content-Length: \(body.utf8.count)"]) + body, twoFaults: true)
        // R13.1-11's order where two adjacent faults answer differently: the earlier one decides.
        refused("te-gzip-chunked-http10", "an HTTP/1.0 request with Transfer-Encoding: gzip, chunked (HTTP/1.0 is checked before the coding: 400, not 501)", 400,
                head(r.path, version: "HTTP/1.0", ["Transfer-Encoding: gzip, chunked"]) + body, twoFaults: true)
        refused("te-gzip-chunked-bad-chunk-size", "Transfer-Encoding: gzip, chunked and a chunk-size line zz (the coding is checked before the body is read: 501, not 400)", 501,
                head(r.path, ["Transfer-Encoding: gzip, chunked"]) + "zz\r\nabc\r\n0\r\n\r\n", twoFaults: true)
        refused("te-gzip-chunked-over-1-mib", "Transfer-Encoding: gzip, chunked and a chunk-size line of 100001 (the coding is checked before the cap: 501, not 413)", 501,
                head(r.path, ["Transfer-Encoding: gzip, chunked"]) + "100001\r\n", twoFaults: true)
        refused("content-length-plus-over-1-mib", "Content-Length: +1048577 (not one decimal number, checked before the cap: 400, not 413)", 400,
                head(r.path, ["Content-Length: +1048577"]), twoFaults: true)
        // A coding sorting below chunked (br): the last-coding test and the only-chunked test are
        // equality tests, not orders (cosmic-ray survivors of pixie, issue 25).
        refused("te-br", "Transfer-Encoding: br (the last coding is not chunked)", 400, head(r.path, ["Transfer-Encoding: br"]) + body)
        refused("te-br-chunked", "Transfer-Encoding: br, chunked (a coding the services do not decode)", 501, head(r.path, ["Transfer-Encoding: br, chunked"]) + body)
        // R13.1-9: above 1 MiB the body is refused before it is read, so none of it is sent: a
        // service that reads it waits for bytes that never come.
        refused("content-length-over-1-mib", "Content-Length: 1048577 and no body sent: refused unread, 413", 413, head(r.path, ["Content-Length: 1048577"]))
        refused("chunked-over-1-mib", "a chunk of 3 bytes, then a chunk-size line of fffff (3 + 1048575 bytes, over 1 MiB) and no data: refused at that line, 413", 413,
                head(r.path, ["Transfer-Encoding: chunked"]) + "3\r\nabc\r\nfffff\r\n")
        refused("chunked-over-1-mib-after-one", "a chunk of 1 byte, then a chunk-size line of 100000 (1 + 1048576 bytes) and no data: refused at that line, 413", 413,
                head(r.path, ["Transfer-Encoding: chunked"]) + "1\r\na\r\n100000\r\n")
        for (name, value) in [("plus", "+\(n)"), ("hex", "0x\(String(n, radix: 16))"), ("fraction", "\(n).0"), ("negative", "-\(n)"), ("empty", ""),
                              ("list-differ", "\(n), \(n + 1)")] {
            refused("content-length-\(name)", "Content-Length: \(value) (not one decimal number)", 400, head(r.path, ["Content-Length: \(value)"]) + r.good)
        }
        refused("content-length-two-lines-differ", "two Content-Length lines, \(n) and \(n + 1)", 400,
                head(r.path, ["Content-Length: \(n)", "Content-Length: \(n + 1)"]) + r.good + " ")
        let u = Array(r.good.utf8)
        let rest = String(decoding: u[10...], as: UTF8.self), first = String(decoding: u[..<10], as: UTF8.self)
        for (name, size) in [("plus", "+a"), ("0x", "0xa"), ("not-hex", "g")] {
            refused("chunk-size-\(name)", "a chunk-size line \(size) (not hex digits)", 400,
                    head(r.path, ["Transfer-Encoding: chunked"]) + "\(size)\r\n\(first)\r\n\(hex(u.count - 10, upper: false))\r\n\(rest)\r\n0\r\n\r\n")
        }
        refused("chunk-data-longer", "a chunk of size 9 carrying 10 bytes before its CRLF", 400,
                head(r.path, ["Transfer-Encoding: chunked"]) + "9\r\n\(first)\r\n\(hex(u.count - 10, upper: false))\r\n\(rest)\r\n0\r\n\r\n")

        // A body that is not UTF-8 (R13.1-6): bytes no text step can send.
        var notUTF8 = Array(r.good.utf8)
        notUTF8[notUTF8.count - 3] = 0xff
        out.append(Case(name: "body-not-utf8", what: "a body whose one byte 0xff makes it not UTF-8 (sent as bytes): not a strict JSON text, \(r.badStatus)",
                        rules: ["R13.1-6"], twoFaults: false,
                        steps: [B.raw("raw", bytes: Array(head(r.path, ["Content-Length: \(notUTF8.count)"]).utf8) + notUTF8, [B.expect(r.badStatus)])]))

        // The request line itself (R13.1-11's first paragraph).
        let tail = "Host: conformance\r\nContent-Type: application/json\r\nContent-Length: \(n)\r\n\r\n" + r.good
        refused("request-line-four-words", "a request line of four words (POST \(r.path) HTTP/1.1 x)", 400, "POST \(r.path) HTTP/1.1 x\r\n" + tail)
        refused("http-2", "a request line of version HTTP/2.0", 505, "POST \(r.path) HTTP/2.0\r\n" + tail)

        // R13.1-12: one connection, several requests.
        let bad = head(r.path, ["Content-Length: 2"]) + "[]"
        out.append(Case(name: "pipelined", what: "a request with a body, then a second before the first is answered: both answered, in order",
                        rules: ["R13.1-12"], twoFaults: false, steps: [B.raw("raw", bad + next, [B.expect(r.badStatus), nextAnswer])]))
        out.append(Case(name: "pipelined-chunked", what: "a chunked request, then a second: both answered, in order (the chunked body ends where its last chunk and trailer do)",
                        rules: ["R13.1-12", "R13.1-11"], twoFaults: false,
                        steps: [B.raw("raw", head(r.path, ["Transfer-Encoding: chunked"]) + chunked(r.good, trailer: true) + next, [r.goodAnswer, nextAnswer])]))
        out.append(Case(name: "connection-close", what: "a request with Connection: close, then a second: the first answered, then the connection closes",
                        rules: ["R13.1-12"], twoFaults: false, steps: [B.raw("raw", head(r.path, ["Connection: close", "Content-Length: 2"]) + "[]" + next, [B.expect(r.badStatus)], closes: true)]))
        out.append(Case(name: "http10-closes", what: "an HTTP/1.0 request without keep-alive, then a second: the first answered, then the connection closes",
                        rules: ["R13.1-12"], twoFaults: false, steps: [B.raw("raw", head(r.path, version: "HTTP/1.0", ["Content-Length: 2"]) + "[]" + next, [B.expect(r.badStatus)], closes: true)]))
        return out
    }
}
