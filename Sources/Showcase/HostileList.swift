import Cellar
import TableKit

/// `/xss`: markup, script and URL payloads in every field of every row — name, subtitle, link,
/// header, footer, identifier and JSON. It shows that nothing a list holds becomes markup.
public struct HostileListController: TableController {
    let payloads: [String]

    public init(payloads: [String] = HostileListController.payloads) { self.payloads = payloads }

    public func numberOfRows(inSection section: Int) -> Int { payloads.count }
    public func titleForHeader(inSection section: Int) -> String? { "Payloads <img src=x onerror=alert('header')>" }
    public func titleForFooter(inSection section: Int) -> String? { "Footer \"><script>alert('footer')</script>" }
    public func identifier(forRowAt indexPath: IndexPath) -> String { "\(indexPath.row)-" + payloads[indexPath.row].prefix(12) }

    public func cellProvider(forRowAt indexPath: IndexPath) -> DataCellProvider {
        let payload = payloads[indexPath.row]
        if indexPath.row.isMultiple(of: 2) {
            return DataCellProvider(prototype: "SubtitleCell", for: indexPath, data: ["name": payload, "role": payload])
        }
        return DataCellProvider(for: indexPath, cell: LinkCell.self, data: LinkCell.CellData(title: payload, destination: payload))
    }

    public func item(forRowAt indexPath: IndexPath) -> (any Encodable)? { ["payload": payloads[indexPath.row]] }

    public func detail(forRowAt indexPath: IndexPath) -> RowDetail? {
        let payload = payloads[indexPath.row]
        return RowDetail(title: payload, fields: [.init("Payload", payload, link: payload), .init("Again", payload)])
    }

    public func indexPath(forRowWithIdentifier identifier: String) -> IndexPath? {
        guard let dash = identifier.firstIndex(of: "-"), let row = Int(identifier[..<dash]), payloads.indices.contains(row) else { return nil }
        return IndexPath(row: row, section: 0)
    }

    /// Payloads for text, attribute, URL and style contexts. `window.__xss` and `alert` are what a
    /// browser test watches for.
    public static let payloads: [String] = [
        "<script>alert(1)</script>", "<script>window.__xss=1</script>", "\"><script>window.__xss=1</script>",
        "'><script>window.__xss=1</script>", "<img src=x onerror=\"window.__xss=1\">", "<svg onload=alert(1)>",
        "<svg><script>alert(1)</script></svg>", "javascript:alert(1)", "JaVaScRiPt:window.__xss=1", " javascript:alert(1)",
        "java\tscript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "\" onmouseover=\"window.__xss=1",
        "' onfocus='window.__xss=1' autofocus '", "<a href=\"javascript:alert(1)\">click</a>", "<iframe src=\"javascript:alert(1)\"></iframe>",
        "<body onload=alert(1)>", "</li><li onclick=alert(1)>", "</ul><script>alert(1)</script>", "</textarea><script>alert(1)</script>",
        "</title><script>alert(1)</script>", "<style>body{background:url(javascript:alert(1))}</style>", "expression(alert(1))",
        "background:url(\"javascript:alert(1)\")", "<div style=\"width:expression(alert(1))\">", "&lt;script&gt;alert(1)&lt;/script&gt;",
        "&#x3C;script&#x3E;alert(1)&#x3C;/script&#x3E;", "%3Cscript%3Ealert(1)%3C/script%3E", "+ADw-script+AD4-alert(1)+ADw-/script+AD4-",
        "<scr<script>ipt>alert(1)</scr</script>ipt>", "<<script>script>alert(1)<</script>/script>", "<!--<script>alert(1)//-->",
        "<![CDATA[<script>alert(1)</script>]]>", "{{name}}", "{{{raw}}}", "${alert(1)}",
        "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
        "<base href=\"javascript:alert(1)//\">", "<object data=\"javascript:alert(1)\"></object>", "<embed src=\"javascript:alert(1)\">",
        "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>", "<details open ontoggle=alert(1)>", "<input autofocus onfocus=alert(1)>",
        "\u{202E}gnp.exe", "zero\u{200B}width", "null\u{0}byte", "emoji 🍷🧀 & <b>bold</b>", "quotes \" ' ` ´", "ampersand & &amp; &&",
        "\\\"><script>alert(1)</script>", "\u{2028}line\u{2029}separators", "</script><script>window.__xss=1</script>",
    ]
}
