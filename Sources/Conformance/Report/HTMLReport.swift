/// `--report html=PATH` and `conformance report --html OUT RUN.json...` (SPEC.md §6.9): one
/// self-contained HTML file each (inline style and script, no external asset, no network).
///
/// The run page: the per-format/op matrix coloured by outcome (one square per case), a filter,
/// and every failure with its diff, comment, rules and stderr tail. The comparison page: a row
/// per case and a column per implementation, with a filter for rows where they disagree.
public enum HTMLReport {
    public static func render(_ r: RunResult) -> String {
        // Through the JSON document, so this page and the comparison page read the same facts.
        do { return run(try ReportDocument(json: JSONReport.document(r))) } catch {
            return page(title: "Conformance report") + "<p>cannot render: \(html(error.description))</p></body></html>\n"
        }
    }

    /// Outcomes in display order: name, label, colour.
    static let outcomes: [(name: String, label: String, colour: String)] = [
        ("fail", "failed", "#c62828"),
        ("changed_failure", "changed failure", "#d84315"),
        ("unexpected_pass", "unexpected pass", "#1565c0"),
        ("required_skipped", "required, skipped", "#ad1457"),
        ("not_run", "not run", "#6a1b9a"),
        ("expected_failure", "expected failure", "#ef8f00"),
        ("skipped", "skipped", "#9e9e9e"),
        ("pass", "passed", "#2e7d32"),
    ]

    static func label(_ outcome: String) -> String { outcomes.first { $0.name == outcome }?.label ?? outcome }

    static let style = """
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1b1b1b;background:#fafafa}
    h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
    .meta{color:#555;margin:0 0 8px}.closing{font:600 15px ui-monospace,Menlo,monospace;padding:6px 10px;border-radius:4px;display:inline-block;color:#fff}
    .ok{background:#2e7d32}.bad{background:#c62828}
    .warnings{background:#fff3e0;border-left:4px solid #ef8f00;padding:8px 12px;margin:12px 0}.warnings li{margin:2px 0}
    table{border-collapse:collapse;background:#fff}th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;vertical-align:top}
    th{background:#eee}td.name,th.name{text-align:left;font-family:ui-monospace,Menlo,monospace;white-space:nowrap}
    td.cells{text-align:left;max-width:560px;line-height:0}
    .sq{display:inline-block;width:9px;height:9px;margin:1px;border-radius:1px}
    .legend span{display:inline-block;margin-right:12px}.legend .sq{vertical-align:middle;margin-right:4px}
    .controls{margin:12px 0;display:flex;gap:14px;flex-wrap:wrap;align-items:center}.controls input[type=search]{width:340px;padding:4px 6px}
    details.case{background:#fff;border:1px solid #ddd;border-left:6px solid #999;margin:6px 0;padding:4px 10px;border-radius:3px}
    details.case summary{cursor:pointer;font-family:ui-monospace,Menlo,monospace}
    .kind{font-weight:600}.rules code{background:#eef;padding:0 3px;margin-right:4px;border-radius:2px}
    pre{background:#f4f4f4;padding:6px 8px;overflow-x:auto;white-space:pre-wrap;word-break:break-all;margin:4px 0;font-size:12px}
    .hidden{display:none!important}
    td.o{font:12px ui-monospace,Menlo,monospace;text-align:center;color:#fff;white-space:nowrap}
    tr.case td.name{font-size:12px}
    """

    static func colourRules() -> String {
        outcomes.map { ".o-\($0.name){background:\($0.colour)}details.case.o-\($0.name){border-left-color:\($0.colour)}" }.joined(separator: "\n")
    }

    static func legend() -> String {
        "<p class=\"legend\">" + outcomes.map { "<span><span class=\"sq o-\($0.name)\"></span>\(html($0.label))</span>" }.joined() + "</p>"
    }

    /// The outcome filter checkboxes; failures and the like checked, passes and skips not.
    static func outcomeBoxes(checked: (String) -> Bool) -> String {
        outcomes.map { o in
            "<label><input type=\"checkbox\" data-outcome=\"\(o.name)\"\(checked(o.name) ? " checked" : "")> \(html(o.label))</label>"
        }.joined(separator: " ")
    }

    // MARK: One run

    static func run(_ d: ReportDocument) -> String {
        var b = page(title: "Conformance: \(d.label)")
        b += "<h1>Conformance report: \(html(d.label))</h1>\n"
        b += "<p class=\"meta\">suite \(html(d.suiteVersion)), protocol \(d.protocolVersion), \(d.restarts) restart(s), exit code \(d.exitCode)</p>\n"
        b += "<p><span class=\"closing \(d.exitCode == 0 ? "ok" : "bad")\" id=\"closing\">\(html(d.summaryLine))</span></p>\n"
        b += warnings(d)

        b += "<h2>By format and op</h2>\n" + legend() + "\n"
        b += "<table class=\"matrix\"><thead><tr><th class=\"name\">format/op</th>"
        for o in ["passed", "failed", "expected", "skipped"] { b += "<th>\(o)</th>" }
        b += "<th class=\"name\">cases</th></tr></thead><tbody>\n"
        for row in d.opRows {
            let failed = ["fail", "changed_failure", "unexpected_pass", "required_skipped", "not_run"].reduce(0) { $0 + (row.counts[$1] ?? 0) }
            b += "<tr data-op=\"\(html(row.name))\"><td class=\"name\">\(html(row.name))</td><td>\(row.counts["pass"] ?? 0)</td><td>\(failed)</td>"
            b += "<td>\(row.counts["expected_failure"] ?? 0)</td><td>\(row.counts["skipped"] ?? 0)</td><td class=\"cells\">"
            for (i, o) in row.outcomes {
                let c = d.cases[i]
                let title = c.id + (c.kind.map { ": \($0)" } ?? "") + (c.reason.map { ": \($0)" } ?? "")
                let text = html([c.id, c.kind ?? "", c.rules.joined(separator: " ")].joined(separator: " ").lowercased())
                if c.isNoteworthy {
                    b += "<a class=\"sq o-\(o)\" href=\"#c\(i)\" title=\"\(html(title))\" data-outcome-of=\"\(o)\" data-text=\"\(text)\"></a>"
                } else {
                    b += "<span class=\"sq o-\(o)\" title=\"\(html(title))\" data-outcome-of=\"\(o)\" data-text=\"\(text)\"></span>"
                }
            }
            b += "</td></tr>\n"
        }
        b += "</tbody></table>\n"

        let noteworthy = d.cases.enumerated().filter { $0.element.isNoteworthy }
        b += "<h2>Cases needing attention (\(noteworthy.count))</h2>\n"
        b += "<div class=\"controls\"><input type=\"search\" id=\"filter\" placeholder=\"filter by id, kind or rule (e.g. R6.3 or wrong_output)\"> "
        b += outcomeBoxes { $0 != "pass" && $0 != "skipped" } + " <span id=\"shown\"></span></div>\n"
        b += "<div id=\"cases\">\n"
        for (i, c) in noteworthy { b += caseBlock(c, index: i) }
        b += "</div>\n"
        b += script(selector: "[data-outcome-of]", counter: "#cases details")
        return b + "</body>\n</html>\n"
    }

    static func warnings(_ d: ReportDocument) -> String {
        var items: [String] = []
        if !d.unknownCapabilities.isEmpty {
            items.append("The testee advertises formats or ops this suite does not know, so they test nothing: " + d.unknownCapabilities.map { "<code>\(html($0))</code>" }.joined(separator: ", "))
        }
        items += d.scopeProblems.map { "Not tested: " + html($0) }
        if let r = d.incompleteReason { items.append("Incomplete: " + html(r)) }
        guard !items.isEmpty else { return "" }
        return "<ul class=\"warnings\">" + items.map { "<li>\($0)</li>" }.joined() + "</ul>\n"
    }

    static func caseBlock(_ c: ReportDocument.Case, index i: Int) -> String {
        let text = html([c.id, c.kind ?? "", c.outcome, c.rules.joined(separator: " "), c.summary ?? ""].joined(separator: " ").lowercased())
        var b = "<details class=\"case o-\(c.outcome)\" id=\"c\(i)\" data-outcome-of=\"\(c.outcome)\" data-text=\"\(text)\"\(c.outcome == "fail" || c.outcome == "changed_failure" ? " open" : "")>"
        b += "<summary><span class=\"kind\">\(html(label(c.outcome)))\(c.kind.map { " [\(html($0))]" } ?? "")</span> \(html(c.id))</summary>\n"
        if let comment = c.comment { b += "<p>case: \(html(comment))</p>\n" }
        if !c.rules.isEmpty { b += "<p class=\"rules\">rules: " + c.rules.map { "<code>\(html($0))</code>" }.joined() + "</p>\n" }
        if let s = c.summary { b += "<p><b>\(html(s))</b></p>\n" }
        if let r = c.reason { b += "<p>\(html(r))</p>\n" }
        if !c.details.isEmpty { b += "<pre class=\"diff\">\(html(c.details.joined(separator: "\n")))</pre>\n" }
        if let t = c.stderrTail { b += "<p>testee stderr (tail):</p><pre class=\"stderr\">\(html(t))</pre>\n" }
        return b + "</details>\n"
    }

    // MARK: Several implementations

    /// The comparison page: one column per report, one row per case id (in first-seen order).
    public static func comparison(_ docs: [ReportDocument]) -> String {
        var b = page(title: "Conformance comparison: \(docs.count) implementations")
        b += "<h1>Conformance comparison: \(docs.count) implementation\(docs.count == 1 ? "" : "s")</h1>\n"
        b += "<p class=\"meta\">suite \(html(Array(Set(docs.map(\.suiteVersion))).sorted().joined(separator: ", ")))</p>\n"
        b += "<table class=\"summary\"><thead><tr><th class=\"name\">implementation</th><th>protocol</th><th class=\"name\">closing line</th><th>exit</th><th class=\"name\">warnings</th></tr></thead><tbody>\n"
        for d in docs {
            let warns = d.unknownCapabilities.map { "unknown: " + $0 } + d.scopeProblems
            b += "<tr><td class=\"name\">\(html(d.label))</td><td>\(d.protocolVersion)</td><td class=\"name o \(d.exitCode == 0 ? "o-pass" : "o-fail")\">\(html(d.summaryLine))</td><td>\(d.exitCode)</td><td class=\"name\">\(html(warns.joined(separator: "; ")))</td></tr>\n"
        }
        b += "</tbody></table>\n"

        // Per format/op: passed/total per implementation.
        var ops: [String] = []
        var byOp: [[String: [String: Int]]] = docs.map { _ in [:] }
        for (k, d) in docs.enumerated() {
            for row in d.opRows {
                if !ops.contains(row.name) { ops.append(row.name) }
                byOp[k][row.name] = row.counts
            }
        }
        b += "<h2>By format and op (passed / executed, skipped)</h2>\n" + legend() + "\n"
        b += "<table class=\"matrix\"><thead><tr><th class=\"name\">format/op</th>" + docs.map { "<th class=\"name\">\(html($0.label))</th>" }.joined() + "</tr></thead><tbody>\n"
        for op in ops {
            b += "<tr data-op=\"\(html(op))\"><td class=\"name\">\(html(op))</td>"
            for k in docs.indices {
                let c = byOp[k][op] ?? [:]
                let passed = c["pass"] ?? 0, skipped = (c["skipped"] ?? 0) + (c["required_skipped"] ?? 0)
                let executed = c.filter { $0.key != "skipped" && $0.key != "required_skipped" && $0.key != "not_run" }.values.reduce(0, +)
                let worst = outcomes.first { (c[$0.name] ?? 0) > 0 }?.name ?? "skipped"
                b += "<td class=\"o o-\(worst)\">\(passed) / \(executed)\(skipped > 0 ? ", \(skipped) skipped" : "")</td>"
            }
            b += "</tr>\n"
        }
        b += "</tbody></table>\n"

        var ids: [String] = []
        var rows: [String: [ReportDocument.Case?]] = [:]
        for (k, d) in docs.enumerated() {
            for c in d.cases {
                if rows[c.id] == nil { ids.append(c.id); rows[c.id] = Array(repeating: nil, count: docs.count) }
                rows[c.id]![k] = c
            }
        }
        b += "<h2>Cases (\(ids.count))</h2>\n"
        b += "<div class=\"controls\"><input type=\"search\" id=\"filter\" placeholder=\"filter by id, kind or rule\"> "
        b += "<label><select id=\"rows\"><option value=\"differ\">rows where implementations differ</option><option value=\"failing\">rows with a failure</option><option value=\"all\">all rows</option></select></label>"
        b += " <span id=\"shown\"></span></div>\n"
        b += "<table class=\"cases\"><thead><tr><th class=\"name\">case</th>" + docs.map { "<th class=\"name\">\(html($0.label))</th>" }.joined() + "</tr></thead><tbody>\n"
        for id in ids {
            let cells = rows[id]!
            let seen = Set(cells.map { $0?.outcome ?? "absent" })
            let failing = cells.contains { $0.map { !["pass", "skipped", "expected_failure"].contains($0.outcome) } ?? false }
            let rules = cells.compactMap { $0?.rules }.first ?? []
            let text = html(([id] + rules + cells.compactMap { $0?.kind }).joined(separator: " ").lowercased())
            b += "<tr class=\"case\" data-differ=\"\(seen.count > 1)\" data-failing=\"\(failing)\" data-text=\"\(text)\"><td class=\"name\" title=\"\(html(cells.compactMap { $0?.comment }.first ?? ""))\">\(html(id))</td>"
            for cell in cells {
                guard let c = cell else { b += "<td class=\"o\" style=\"color:#999\">absent</td>"; continue }
                let title = [c.summary, c.reason].compactMap { $0 }.joined(separator: " ")
                let short = c.outcome == "pass" ? "pass" : (c.kind ?? label(c.outcome))
                b += "<td class=\"o o-\(c.outcome)\" title=\"\(html(title))\">\(html(short))</td>"
            }
            b += "</tr>\n"
        }
        b += "</tbody></table>\n"
        b += """
        <script>
        (function(){
          var q=document.getElementById('filter'),sel=document.getElementById('rows'),shown=document.getElementById('shown');
          var rows=[].slice.call(document.querySelectorAll('tr.case'));
          function apply(){
            var t=q.value.toLowerCase(),mode=sel.value,n=0;
            rows.forEach(function(r){
              var ok=(!t||r.dataset.text.indexOf(t)>=0)&&(mode==='all'||(mode==='differ'&&r.dataset.differ==='true')||(mode==='failing'&&r.dataset.failing==='true'));
              r.classList.toggle('hidden',!ok);if(ok)n++;
            });
            shown.textContent=n+' of '+rows.length+' rows shown';
          }
          q.addEventListener('input',apply);sel.addEventListener('change',apply);apply();
        })();
        </script>

        """
        return b + "</body>\n</html>\n"
    }

    // MARK: Shared

    static func page(title: String) -> String {
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>\(html(title))</title>\n<style>\n\(style)\n\(colourRules())\n</style>\n</head>\n<body>\n"
    }

    /// The filter: a search box over `data-text` and outcome checkboxes over `data-outcome-of`.
    static func script(selector: String, counter: String) -> String {
        """
        <script>
        (function(){
          var q=document.getElementById('filter'),shown=document.getElementById('shown');
          var boxes=[].slice.call(document.querySelectorAll('input[data-outcome]'));
          var items=[].slice.call(document.querySelectorAll('\(selector)'));
          var listed=[].slice.call(document.querySelectorAll('\(counter)'));
          function apply(){
            var t=q.value.toLowerCase(),on={};
            boxes.forEach(function(b){on[b.dataset.outcome]=b.checked;});
            items.forEach(function(e){
              var ok=(e.tagName!=='DETAILS'||on[e.dataset.outcomeOf])&&(!t||e.dataset.text.indexOf(t)>=0);
              e.classList.toggle(e.tagName==='DETAILS'?'hidden':'dim',!ok);
            });
            var n=listed.filter(function(e){return !e.classList.contains('hidden');}).length;
            shown.textContent=n+' of '+listed.length+' cases shown';
          }
          q.addEventListener('input',apply);boxes.forEach(function(b){b.addEventListener('change',apply);});apply();
        })();
        </script>
        <style>.dim{opacity:.15}</style>

        """
    }

    /// Text and attribute escaping.
    static func html(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}
