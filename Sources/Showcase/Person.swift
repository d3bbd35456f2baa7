import Cellar
import TableKit

/// A person in the people lists. A class, so a row's configure closure captures one reference
/// and a cell holds one pointer: no copying and no allocation per row.
public final class Person: Sendable, Encodable {
    private enum CodingKeys: String, CodingKey { case id, name, role, email, bio }

    public enum Role: String, Sendable, Encodable, CaseIterable {
        case engineer = "Engineer"
        case designer = "Designer"
        case manager = "Manager"
        case writer = "Writer"
    }

    public let id: Int
    public let name: String
    public let role: Role
    public let email: String
    public let bio: String
    /// `id` as text, made once: it is the row's identifier on every render.
    public let identifier: String

    public init(id: Int, name: String, role: Role, email: String, bio: String) {
        self.id = id
        identifier = String(id)
        self.name = name
        self.role = role
        self.email = email
        self.bio = bio
    }

    var detail: RowDetail {
        RowDetail(
            title: name,
            fields: [
                .init("Name", name), .init("Role", role.rawValue), .init("Email", email, link: "mailto:" + email), .init("About", bio),
                .init("ID", String(id)),
            ])
    }
}

extension Person: PrototypeData {
    public func prototypeValue(forKey key: String) -> PrototypeValue {
        switch key {
        case "name": .text(name)
        case "role": .text(role.rawValue)
        case "email": .text(email)
        case "bio": .text(bio)
        default: .missing
        }
    }

    // The listbench rows write their texts straight from the person: no `PrototypeValue` per value,
    // and by slot, so a template's tags are matched to the fields once, not by name per row.
    public static let prototypeSlots = ["name", "role", "email", "bio"]

    public func writePrototypeValue(slot: Int, into html: inout HTMLWriter) {
        switch slot {
        case 0: html.text(name)
        case 1: html.text(role.rawValue)
        case 2: html.text(email)
        case 3: html.text(bio)
        default: break
        }
    }

    public func writePrototypeValue(forKey key: String, into html: inout HTMLWriter) {
        if let slot = Person.prototypeSlots.firstIndex(of: key) { writePrototypeValue(slot: slot, into: &html) }
    }
}

/// The people of the showcase, made up deterministically, with markup, quotes, ampersands and
/// emoji in the data so that escaping is exercised on every page.
public enum PeopleDirectory {
    static let firstNames = [
        "Ada", "Grace", "Linus", "Margaret", "Ken", "Barbara", "Dennis", "Frances", "Guido", "Radia", "Bjarne", "Hedy", "Alan", "Katherine",
        "Chris", "Zoë", "José", "Søren", "Aiko", "Nnamdi",
    ]
    static let lastNames = [
        "Lovelace", "Hopper", "Torvalds", "Hamilton", "Thompson", "Liskov", "Ritchie", "Allen", "van Rossum", "Perlman", "Stroustrup",
        "Lamarr", "Turing", "Johnson", "Lattner", "Núñez", "O'Brien", "Kierkegaard", "Tanaka", "Okafor",
    ]
    static let hostileSuffixes = [
        " <script>alert(\"xss\")</script>", " \"><img src=x onerror=alert(1)>", " & Sons", " 'quoted'", " 🍷🧀", " </li><li>injected",
        " {{name}}",
    ]
    static let interests = ["wine cellars", "type systems", "<b>bold</b> claims", "\"quotes\" & 'apostrophes'", "cheese 🧀", "table views"]

    /// `count` people; every 13th has hostile text in the name and every 5th in the bio.
    public static func make(count: Int) -> [Person] {
        (1...max(count, 1)).prefix(count).map { id in
            let first = firstNames[id % firstNames.count]
            let last = lastNames[(id / firstNames.count) % lastNames.count]
            var name = first + " " + last
            if id % 13 == 0 { name += hostileSuffixes[(id / 13) % hostileSuffixes.count] }
            let role = Person.Role.allCases[(id * 7 + id / 3) % 4]
            let email = (first + "." + last).lowercased().filter { $0.isLetter || $0 == "." } + "\(id)@example.com"
            let interest = interests[id % interests.count]
            let bio = id % 5 == 0 ? "Likes \(interest) & <i>markup</i> in bios." : "Likes \(interest)."
            return Person(id: id, name: name, role: role, email: email, bio: bio)
        }
    }

    /// The listbench data set, which the benchmark's peer servers generate the same way: person
    /// `i` of 1…count, every 7th name holding markup, roles in turn, the same hostile bio for all.
    public static func listbench(count: Int = 100_000) -> [Person] {
        (1...max(count, 1)).prefix(count).map { i in
            Person(
                id: i, name: i % 7 == 0 ? "Person \(i) <b>&\"'" : "Person \(i)", role: Person.Role.allCases[[0, 1, 2, 3][i % 4]],
                email: "person\(i)@example.com", bio: "Bio of person \(i): likes <tags> & \"quotes\" and 'apostrophes' in text.")
        }
    }
}

extension Person: JSONRepresentable {
    /// The same object as `Encodable` writes (a test holds them equal), without its containers.
    public func writeJSON(into json: inout JSONWriter) {
        // Keys and punctuation between values in one literal each, written with the value that
        // follows: one reservation per member.
        json.raw("{\"id\":")
        json.number(id)
        json.string(after: ",\"name\":", name)
        json.string(after: ",\"role\":", role.rawValue)
        json.string(after: ",\"email\":", email)
        json.string(after: ",\"bio\":", bio)
        json.raw("}")
    }
}
