import Foundation
import HTTPTestSupport
import Showcase
import Testing

/// The showcase's detail that is a list, over sockets: `/roles` links each role to the list of its
/// people, a page in the frame with a way back, paged, with its JSON; an unknown role is a 404.
extension CellarHTTPTests {
    @Suite struct ShowcaseRoles {
        @Test func eachRoleLinksToTheListOfItsPeople() throws {
            let server = try TestServer.showcase()
            let people = PeopleDirectory.make(count: 300)
            let roles = try server.list("/roles.json")
            #expect(roles.rows.map(\.id) == ["engineer", "designer", "manager", "writer"])
            #expect(roles.rows.map(\.href) == ["/roles/engineer", "/roles/designer", "/roles/manager", "/roles/writer"])
            #expect(try server.get("/").text.contains(#"href="/roles""#), "the index links to it")

            for (row, role) in zip(roles.rows, Person.Role.allCases) {
                let expected = people.filter { $0.role == role }
                #expect(row.item?["people"]?.string == String(expected.count))
                let list = try server.list(try #require(row.href) + ".json?limit=500")
                #expect(list.title == role.rawValue + "s")
                #expect(list.meta.total == expected.count)
                #expect(list.rows.map(\.id) == expected.map(\.identifier))
            }
        }

        @Test func aRolesPageIsAListInTheFrameWithAWayBackAndPages() throws {
            let server = try TestServer.showcase()
            let designers = PeopleDirectory.make(count: 300).filter { $0.role == .designer }
            let page = try server.get("/roles/designer?limit=10")
            #expect(page.status == 200)
            let elements = try HTMLInspector.elements(page.body)
            #expect(elements.filter { $0.tag == "h1" }.map(\.text) == ["Designers"])
            #expect(elements.first { $0.tag == "title" }?.text == "Designers · Cellar")
            #expect(elements.contains { $0.tag == "a" && $0.attributes["href"] == "/roles" && $0.text == "Back to Roles" })
            #expect(elements.contains { $0.tag == "a" && $0.attributes["href"] == "/roles" && $0.attributes["aria-current"] == "page" })
            let rows = elements.filter { $0.tag == "li" && $0.hasClass("cell") }
            #expect(rows.map { $0.attributes["id"] } == designers.prefix(10).map { "row-" + $0.identifier })
            #expect(!elements.contains { $0.tag == "h2" && $0.hasClass("section-header") })
            // Its rows have no detail of their own.
            #expect(!page.text.contains(#"href="/roles/designer/"#))
            #expect(page.links["next"] == "/roles/designer?offset=10&limit=10")
        }

        /// A role's people have no detail there, so their rows hold no link to one: no `<a>`
        /// without `href` (not focusable, yet read as a link) and no `href=""` (the page itself),
        /// whether the row is a class cell (engineers) or a prototype (the others).
        @Test func aRolesRowsHaveNoLinkWithoutATarget() throws {
            let server = try TestServer.showcase()
            for role in ["engineer", "designer"] {
                let page = try server.get("/roles/\(role)?limit=10")
                #expect(page.status == 200)
                let elements = try HTMLInspector.elements(page.body)
                #expect(!elements.contains { $0.tag == "a" && ($0.attributes["href"] ?? "").isEmpty }, "\(role)")
                let titles = elements.filter { $0.hasClass("cell-link") }
                #expect(titles.count == 10, "\(role)")
                #expect(titles.allSatisfy { $0.tag == "span" }, "\(role)")
            }
        }

        @Test func anUnknownRoleIsA404ThatNamesIt() throws {
            let server = try TestServer.showcase()
            for target in ["/roles/pilot", "/roles/Engineer", "/roles/engineer/1"] {
                let page = try server.get(target)
                #expect(page.status == 404, "\(target)")
            }
            #expect(try server.get("/roles/pilot").text.contains("Roles has no row “pilot”"))
        }
    }
}
