import TableKit
import Testing

@Suite struct PrototypeTemplateTests {
    /// Values by name, for rendering templates in isolation.
    private struct Values: PrototypeData {
        var values: [String: PrototypeValue]
        func prototypeValue(forKey key: String) -> PrototypeValue { values[key] ?? .missing }
    }

    private func render(_ source: String, _ values: [String: PrototypeValue] = [:]) throws -> String {
        let template = try PrototypeTemplate(source)
        var html = HTMLWriter()
        template.render(into: &html, data: Values(values: values))
        return html.string
    }

    /// An error as a test can spell it out (``PrototypeTemplateError``'s initializer is internal).
    private struct Failure: Equatable {
        var message: String
        var line: Int
        var column: Int
    }

    /// The error a malformed template throws.
    private func failure(_ source: String) -> Failure? {
        let error = #expect(throws: PrototypeTemplateError.self) { try PrototypeTemplate(source) }
        return error.map { Failure(message: $0.message, line: $0.line, column: $0.column) }
    }

    // MARK: Values

    @Test func valuesAreEscapedAndLiteralsAreNot() throws {
        #expect(try render(#"<b class="x">{{name}}</b>"#, ["name": .text("A & <B>")]) == #"<b class="x">A &amp; &lt;B&gt;</b>"#)
        #expect(try render(#"<a title="{{t}}">"#, ["t": .text(#"" onclick="x"#)]) == #"<a title="&quot; onclick=&quot;x">"#)
        #expect(try render("<a title='{{t}}'>", ["t": .text("' onclick='x")]) == "<a title='&#39; onclick=&#39;x'>")
    }

    /// A row without a link gets its template's `<a class="cell-link">` as a span; where that
    /// rewrite would change the template's structure (here the link's `}}` closes a comment opened
    /// before it), the template is still taken and keeps its text (found by the fuzz target).
    @Test func aLinkWhoseRewriteWouldChangeTheTemplateIsKept() throws {
        #expect(try render(#"<a class="cell-link" href="{{href}}">x</a>"#) == #"<span class="cell-link">x</span>"#)
        #expect(try render(#"{{! note <a class="cell-link" href="{{href}}">x</a>"#) == #"">x</a>"#)
    }

    @Test func numbersFlagsAndMissingValues() throws {
        #expect(try render("{{n}}|{{f}}|{{g}}|{{m}}|", ["n": .number(-42), "f": .flag(true), "g": .flag(false)]) == "-42|true|false||")
    }

    @Test func whitespaceAroundNamesIsAllowed() throws {
        #expect(try render("{{ name }}{{#\tflag }}!{{/flag\t}}", ["name": .text("x"), "flag": .flag(true)]) == "x!")
    }

    @Test func namesMayHoldDotsDashesAndUnderscores() throws {
        #expect(try render("{{user.first-name_2}}", ["user.first-name_2": .text("Ada")]) == "Ada")
    }

    @Test func aSelectionValueIsTheEscapedLink() throws {
        let selection = RowSelection(base: "/a&b", identifier: "x y")
        #expect(try render(#"<a href="{{href}}">"#, ["href": .selection(selection)]) == #"<a href="/a&amp;b/x%20y">"#)
    }

    @Test func aTemplateWithoutTagsIsCopied() throws {
        #expect(try render("<p>Plain { text } with } braces {</p>") == "<p>Plain { text } with } braces {</p>")
        #expect(try render("") == "")
        #expect(try render("Ünïcødé 🙂") == "Ünïcødé 🙂")
    }

    @Test func keysListEveryNameOnceInOrderOfFirstUse() throws {
        let template = try PrototypeTemplate("{{b}}{{#a}}{{b}}{{c}}{{/a}}{{^d}}{{/d}}{{! e }}")
        #expect(template.keys == ["b", "a", "c", "d"])
    }

    @Test func valuesAreNeverReparsedAsTemplates() throws {
        #expect(try render("{{a}}", ["a": .text("{{b}}"), "b": .text("nope")]) == "{{b}}")
    }

    // MARK: Sections

    @Test(arguments: [
        (PrototypeValue.text("x"), true), (.text(""), false), (.number(3), true), (.number(-1), true), (.number(0), false),
        (.flag(true), true), (.flag(false), false), (.missing, false),
        (.selection(RowSelection(base: "/", identifier: "")), true),
    ])
    func sectionsShowForTruthyValuesAndInvertedSectionsForTheRest(value: PrototypeValue, truthy: Bool) throws {
        #expect(value.isTruthy == truthy)
        #expect(try render("[{{#v}}yes{{/v}}{{^v}}no{{/v}}]", ["v": value]) == (truthy ? "[yes]" : "[no]"))
    }

    @Test func sectionsNestAndReadTheSameRow() throws {
        let source = "{{#a}}A{{#b}}B{{name}}{{/b}}{{^b}}-{{/b}}{{/a}}"
        #expect(try render(source, ["a": .flag(true), "b": .flag(true), "name": .text("n")]) == "ABn")
        #expect(try render(source, ["a": .flag(true)]) == "A-")
        #expect(try render(source, ["b": .flag(true), "name": .text("n")]) == "")
    }

    /// Each literal is written by the step after it: the text around and at the end of a section
    /// must be written exactly when it should, whichever way the section goes.
    @Test func textBeforeInsideAndAfterASectionIsWrittenOnce() throws {
        for source in ["a{{#x}}b{{/x}}c", "a{{#x}}b{{name}}c{{/x}}d{{name}}e", "{{#x}}{{/x}}", "a{{^x}}b{{#x}}c{{/x}}d{{/x}}e"] {
            for flag in [true, false] {
                // A plain reading of the template: sections by hand.
                let expected: String
                switch source {
                case "a{{#x}}b{{/x}}c": expected = flag ? "abc" : "ac"
                case "a{{#x}}b{{name}}c{{/x}}d{{name}}e": expected = flag ? "abNcdNe" : "adNe"
                case "{{#x}}{{/x}}": expected = ""
                default: expected = flag ? "ae" : "abde"
                }
                #expect(try render(source, ["x": .flag(flag), "name": .text("N")]) == expected, "\(source), x \(flag)")
            }
        }
    }

    @Test func aSectionMayUseItsValueInside() throws {
        let source = #"{{#role}}<span class="role">{{role}}</span>{{/role}}"#
        #expect(try render(source, ["role": .text("Admiral")]) == #"<span class="role">Admiral</span>"#)
        #expect(try render(source, ["role": .text("")]) == "")
    }

    @Test func thirtyTwoLevelsOfNestingAreAllowed() throws {
        let names = (0..<32).map { "s\($0)" }
        let source = names.map { "{{#\($0)}}" }.joined() + "deep" + names.reversed().map { "{{/\($0)}}" }.joined()
        let all = Dictionary(uniqueKeysWithValues: names.map { ($0, PrototypeValue.flag(true)) })
        #expect(try render(source, all) == "deep")
    }

    // MARK: Comments

    @Test func commentsWriteNothing() throws {
        #expect(try render("a{{! a comment with <b>, {{ and # }}b") == "ab")
        #expect(try render("{{!}}x") == "x")
        #expect(try render("a{{!\n multi\n line\n}}b") == "ab")
    }

    // MARK: Errors

    @Test func anUnclosedTagPointsAtItsStart() {
        #expect(failure("<p>\n  <b>{{name</b>") == Failure(message: "unclosed tag: missing }}", line: 2, column: 6))
        #expect(failure("{{") == Failure(message: "unclosed tag: missing }}", line: 1, column: 1))
        #expect(failure("{{! never closed")?.message == "unclosed tag: missing }}")
    }

    @Test(arguments: ["{{{name}}}", "{{&name}}", "{{& name}}"])
    func unescapedOutputIsAnError(source: String) {
        let error = failure("x\n" + source)
        #expect(error?.line == 2 && error?.column == 1)
        #expect(error?.message == "unescaped output ({{{…}}} or {{&…}}) is not supported: every value is escaped")
    }

    @Test(arguments: ["{{>partial}}", "{{> partial}}", "{{=<% %>=}}", "{{<parent}}{{/parent}}", "{{$block}}{{/block}}"])
    func partialsBlocksAndDelimiterChangesAreErrors(source: String) {
        #expect(failure("ab" + source)?.message == "partials, blocks and delimiter changes are not supported")
        #expect(failure("ab" + source)?.column == 3)
    }

    @Test func aMismatchedCloseNamesBothTagsAndPointsAtTheClose() {
        let error = failure("{{#a}}\n  x{{/b}}")
        #expect(error == Failure(message: "{{/b}} closes {{#a}}", line: 2, column: 4))
        #expect(failure("{{^a}}{{/b}}")?.message == "{{/b}} closes {{^a}}")
    }

    @Test func aCloseWithoutAnOpenSectionIsAnError() {
        #expect(failure("text\n{{/a}}") == Failure(message: "unexpected {{/a}} with no open section", line: 2, column: 1))
        #expect(failure("{{#a}}{{/a}}{{/a}}")?.message == "unexpected {{/a}} with no open section")
    }

    @Test func anUnclosedSectionPointsAtItsOpening() {
        #expect(failure("x\n\n  {{#items}}\n<li>") == Failure(message: "section {{#items}} is never closed", line: 3, column: 3))
        #expect(failure("{{^empty}}")?.message == "section {{^empty}} is never closed")
        #expect(failure("{{#a}}{{#b}}{{/b}}")?.message == "section {{#a}} is never closed")
    }

    @Test(arguments: ["{{}}", "{{ }}", "{{#}}", "{{/}}", "{{^ }}"])
    func aTagNeedsAName(source: String) {
        let error = failure(source)
        #expect(error?.message == "empty tag {{}}" || error?.message == "a tag needs a name")
        #expect(error?.line == 1 && error?.column == 1)
    }

    @Test(arguments: ["{{na me}}", "{{name!}}", "{{a<b}}", "{{ #name}}", "{{na\nme}}", "{{nämé}}", "{{a/b}}", "{{#a b}}{{/a b}}"])
    func badNamesAreErrors(source: String) {
        let error = failure("ok " + source)
        #expect(error?.message == "invalid character in tag name (letters, digits, _ - . only)")
        #expect(error?.line == 1 && error?.column == 4)
    }

    @Test func nestingDeeperThanThirtyTwoIsAnError() {
        let names = (0..<33).map { "s\($0)" }
        let source = names.map { "{{#\($0)}}" }.joined() + names.reversed().map { "{{/\($0)}}" }.joined()
        #expect(failure(source) == Failure(message: "sections nested deeper than 32", line: 1, column: 1 + 10 * 7 + 22 * 8))
        // (the 33rd opening tag, {{#s32}}, follows ten 7-character and twenty-two 8-character tags)
    }

    @Test func columnsCountCharactersNotBytes() {
        // "é" and "🙂" are two and four bytes in UTF-8 but one column each.
        #expect(failure("é🙂 {{{x}}}")?.column == 4)
    }

    @Test func errorsDescribeThemselves() throws {
        let error = try #require(#expect(throws: PrototypeTemplateError.self) { try PrototypeTemplate("\n\n  x {{name") })
        #expect(error.description == "line 3, column 5: unclosed tag: missing }}")
    }
}
