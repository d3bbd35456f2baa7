import MicroHTTP
import Testing

struct ServerSentEventTests {
    private func text(_ event: ServerSentEvent) -> String { String(decoding: event.encoded, as: UTF8.self) }

    @Test func fieldsAreFramedInOrderAndEndWithABlankLine() {
        let event = ServerSentEvent(data: "hello", id: "7", event: "update", retry: .milliseconds(2500))
        #expect(text(event) == "event: update\nid: 7\nretry: 2500\ndata: hello\n\n")
        #expect(text(ServerSentEvent(data: "plain")) == "data: plain\n\n")
    }

    @Test func dataIsSplitAtEveryKindOfLineBreak() {
        #expect(text(ServerSentEvent(data: "a\nb\r\nc\rd")) == "data: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(text(ServerSentEvent(data: "")) == "data: \n\n")
        #expect(text(ServerSentEvent(data: "end\n")) == "data: end\ndata: \n\n")
        #expect(text(ServerSentEvent(data: "\r\n\r\n")) == "data: \ndata: \ndata: \n\n")
    }

    @Test func anIdOrNameCannotStartAFieldOfItsOwn() {
        let event = ServerSentEvent(data: "x", id: "1\ndata: forged\0", event: "a\rb")
        #expect(text(event) == "event: a\u{FFFD}b\nid: 1\u{FFFD}data: forged\u{FFFD}\ndata: x\n\n")
    }

    @Test func commentsPrefixEveryLine() {
        #expect(String(decoding: ServerSentEvent.comment("one\ntwo"), as: UTF8.self) == ": one\n: two\n")
        #expect(String(decoding: ServerSentEvent.comment(""), as: UTF8.self) == ": \n")
    }
}
