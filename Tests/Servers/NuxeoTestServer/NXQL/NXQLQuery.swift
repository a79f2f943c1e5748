import Foundation

/// A literal on the right-hand side of an NXQL comparison.
enum NXQLLiteral: Sendable, Equatable {
    case string(String)
    case number(Double)
    case timestamp(Int64)
}

/// An NXQL `WHERE` expression.
indirect enum NXQLExpression: Sendable {
    case and(NXQLExpression, NXQLExpression)
    case or(NXQLExpression, NXQLExpression)
    case not(NXQLExpression)
    case compare(property: String, op: String, value: NXQLLiteral)
    case like(property: String, pattern: String, caseInsensitive: Bool, negated: Bool)
    case inList(property: String, values: [NXQLLiteral], negated: Bool)
    case startsWith(property: String, prefix: String)
    case isNull(property: String, negated: Bool)
}

/// One `ORDER BY` key.
struct NXQLOrder: Sendable, Equatable {
    var property: String
    var ascending: Bool
}

/// A parsed `SELECT * FROM … [WHERE …] [ORDER BY …]`.
struct NXQLQuery: Sendable {
    var types: [String]
    var filter: NXQLExpression?
    var order: [NXQLOrder]
}
