/// A request's route parameters: the names of the matched pattern's parameters (`id` of
/// `/people/:id`, the rest's name for `*`) with the values the path gave them, in the pattern's order.
///
/// Read one by name, `request.parameters["id"]`, as from a dictionary: nil when the route has none
/// of that name. The ``Router`` makes it for the route that answers, and for no other.
public struct RouteParameters: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    // A route has a few parameters: a search along a short array is quicker than hashing a name.
    private var parameters: [(name: String, value: String)]

    /// No parameters.
    public init() {
        parameters = []
    }

    /// The parameters of `elements`; a name given twice keeps its last value.
    public init(dictionaryLiteral elements: (String, String)...) {
        parameters = []
        for (name, value) in elements { self[name] = value }
    }

    /// Room for `count` parameters, appended by the ``Router``.
    init(capacity count: Int) {
        parameters = []
        parameters.reserveCapacity(count)
    }

    /// Appends a parameter; the caller knows that `name` is not there yet (a pattern's names are distinct).
    mutating func append(name: String, value: String) {
        parameters.append((name, value))
    }

    /// The value of the parameter named `name`, or nil; setting nil removes it.
    public subscript(name: String) -> String? {
        get {
            for parameter in parameters where parameter.name == name { return parameter.value }
            return nil
        }
        set {
            let index = parameters.firstIndex { $0.name == name }
            switch (index, newValue) {
            case (let index?, let value?): parameters[index].value = value
            case (let index?, nil): parameters.remove(at: index)
            case (nil, let value?): parameters.append((name, value))
            case (nil, nil): break
            }
        }
    }

    /// How many parameters there are.
    public var count: Int { parameters.count }

    /// Whether there is none.
    public var isEmpty: Bool { parameters.isEmpty }

    /// The parameters, in the pattern's order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        parameters.makeIterator()
    }

    /// The same names with the same values, in any order (as two dictionaries are equal).
    public static func == (left: RouteParameters, right: RouteParameters) -> Bool {
        left.count == right.count && left.parameters.allSatisfy { right[$0.name] == $0.value }
    }
}
