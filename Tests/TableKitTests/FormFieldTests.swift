import TableKit
import Testing

/// A form's fields: each kind's check of its text, and the calendar day a date field holds.
@Suite struct FormFieldTests {
    @Test func eachKindChecksItsText() {
        let name = FormField.text("name", label: "Name", isRequired: true)
        #expect(name.validationMessage(for: nil) == "Name is required.")
        #expect(name.validationMessage(for: "  ") == "Name is required.")
        #expect(name.validationMessage(for: "Ada") == nil)
        let count = FormField.number("count", label: "Count", minimum: 1, maximum: 10)
        #expect(count.validationMessage(for: "") == nil)
        #expect(count.validationMessage(for: "x") == "Count must be a number, like 12.")
        #expect(count.validationMessage(for: "inf") == "Count must be a number, like 12.")
        #expect(count.validationMessage(for: "2.5") == "Count must be a whole number.")
        #expect(count.validationMessage(for: "11") == "Count must be between 1 and 10.")
        #expect(count.validationMessage(for: "10") == nil)
        let price = FormField.number("price", label: "Price", minimum: 0.5, allowsDecimals: true)
        #expect(price.validationMessage(for: "2.5") == nil)
        #expect(price.validationMessage(for: "0.25") == "Price must be 0.5 or more.")
        let day = FormField.date("day", label: "Day")
        #expect(day.validationMessage(for: "2024-02-29") == nil)
        #expect(day.validationMessage(for: "2023-02-29") == "Day must be a date, like 2026-11-28.")
        #expect(day.validationMessage(for: "29/02/2024") == "Day must be a date, like 2026-11-28.")
        let toggle = FormField.toggle("on", label: "On")
        #expect(toggle.validationMessage(for: nil) == nil)
        #expect(toggle.validationMessage(for: "1") == nil)
        #expect(toggle.validationMessage(for: "maybe") == "On must be on or off.")
        let picker = FormField.picker("color", label: "Color", options: [.init("red", "Red")])
        #expect(picker.validationMessage(for: "") == nil)
        #expect(picker.validationMessage(for: "red") == nil)
        #expect(picker.validationMessage(for: "blue") == "Choose one of the options for Color.")
    }

    @Test func aCalendarDayCountsDaysFrom1970() throws {
        #expect(CalendarDay("1970-01-01")?.daysSince1970 == 0)
        #expect(CalendarDay("2000-03-01")?.daysSince1970 == 11_017)
        #expect(CalendarDay("1969-12-31")?.daysSince1970 == -1)
        for days in [-800_000, -1, 0, 59, 11_016, 20_000, 2_000_000] {
            #expect(CalendarDay(daysSince1970: days).daysSince1970 == days)
        }
        #expect(CalendarDay(daysSince1970: 11_016).description == "2000-02-29")
        #expect(CalendarDay("0999-1-01") == nil)
        #expect(CalendarDay("２０２４-01-01") == nil)
    }

    @Test func aFilledFormShowsWhatWasSentButNoPassword() {
        let form = FormTable(sections: [
            FormSection(fields: [.text("name", label: "Name"), .secure("password", label: "Password"), .toggle("on", label: "On", isOn: true)])
        ])
        let filled = form.filled(values: ["name": "Ada", "password": "hunter2"], errors: ["name": "Taken."])
        #expect(filled.fields.map(\.value) == ["Ada", "", "1"])
        #expect(filled.fields.map(\.error) == ["Taken.", nil, nil])
        #expect(filled.identifier(forRowAt: IndexPath(row: 1, section: 0)) == "password")
    }

    @Test func everyTextAFieldCellWritesIsEscaped() throws {
        let hostile = "\"><script>x</script>&'"
        let form = FormTable(sections: [
            FormSection(
                header: hostile, footer: hostile,
                fields: [
                    FormField(
                        name: "a b\"", label: hostile, kind: .text, placeholder: hostile, help: hostile, value: hostile, autocomplete: hostile),
                    .picker("p", label: hostile, options: [.init(hostile, hostile)], value: hostile),
                    .textArea("t", label: hostile, value: "</textarea>" + hostile),
                ])
        ]).filled(values: [:], errors: ["a b\"": hostile, "p": hostile])
        var html = HTMLWriter()
        var renderer = TableRenderer(controller: form, tableView: TableView(registry: ReuseRegistry()))
        _ = try renderer.render(into: &html)
        let page = html.string
        #expect(!page.contains("<script>"))
        #expect(!page.contains("</textarea>&"))
        #expect(page.contains(#"value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;&amp;&#39;""#))
        #expect(page.contains(#"<option value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;&amp;&#39;" selected>"#))
        // A name is percent-encoded in the ids that tie a control to its label and message.
        #expect(page.contains(#"<label class="field-label" for="field-a%20b%22">"#))
        #expect(
            page.contains(#"id="field-a%20b%22" name="a b&quot;" aria-invalid="true" aria-describedby="field-a%20b%22-error field-a%20b%22-help""#))
        #expect(page.components(separatedBy: "&lt;script&gt;").count - 1 == 14)  // every text written, once each
    }
}
