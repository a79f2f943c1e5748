import Foundation

/// Recursive-descent parser for the NXQL subset the server understands.
struct NXQLParser {
    struct SyntaxError: Error, CustomStringConvertible { var description: String }

    private var tokens: [NXQLToken]
    private var index = 0

    static func parse(_ text: String) throws -> NXQLQuery {
        let tokens: [NXQLToken]
        do {
            tokens = try NXQLLexer.tokenize(text)
        } catch {
            throw SyntaxError(description: "\(error)")
        }
        var parser = NXQLParser(tokens: tokens)
        return try parser.query()
    }

    private init(tokens: [NXQLToken]) { self.tokens = tokens }

    private var current: NXQLToken? { index < tokens.count ? tokens[index] : nil }

    private func isKeyword(_ keyword: String, at offset: Int = 0) -> Bool {
        guard index + offset < tokens.count, case .word(let w) = tokens[index + offset] else { return false }
        return w.caseInsensitiveCompare(keyword) == .orderedSame
    }

    private mutating func keyword(_ keyword: String) throws {
        guard isKeyword(keyword) else { throw SyntaxError(description: "expected \(keyword) near \(describeCurrent)") }
        index += 1
    }

    private mutating func accept(_ keyword: String) -> Bool {
        guard isKeyword(keyword) else { return false }
        index += 1
        return true
    }

    private mutating func symbol(_ s: String) throws {
        guard current == .symbol(s) else { throw SyntaxError(description: "expected '\(s)' near \(describeCurrent)") }
        index += 1
    }

    private var describeCurrent: String { current.map { "\($0)" } ?? "end of query" }

    private mutating func identifier() throws -> String {
        guard case .word(let w) = current else { throw SyntaxError(description: "expected a property near \(describeCurrent)") }
        index += 1
        return w
    }

    private mutating func query() throws -> NXQLQuery {
        try keyword("SELECT")
        if current == .symbol("*") { index += 1 } else {
            _ = try identifier()
            while current == .symbol(",") { index += 1; _ = try identifier() }
        }
        try keyword("FROM")
        var types = [try identifier()]
        while current == .symbol(",") { index += 1; types.append(try identifier()) }
        var filter: NXQLExpression?
        if accept("WHERE") { filter = try orExpression() }
        var order: [NXQLOrder] = []
        if accept("ORDER") {
            try keyword("BY")
            repeat {
                if current == .symbol(",") { index += 1 }
                let property = try identifier()
                var ascending = true
                if accept("DESC") { ascending = false } else { _ = accept("ASC") }
                order.append(NXQLOrder(property: property, ascending: ascending))
            } while current == .symbol(",")
        }
        guard current == nil else { throw SyntaxError(description: "unexpected \(describeCurrent)") }
        return NXQLQuery(types: types, filter: filter, order: order)
    }

    private mutating func orExpression() throws -> NXQLExpression {
        var left = try andExpression()
        while accept("OR") { left = .or(left, try andExpression()) }
        return left
    }

    private mutating func andExpression() throws -> NXQLExpression {
        var left = try unary()
        while accept("AND") { left = .and(left, try unary()) }
        return left
    }

    private mutating func unary() throws -> NXQLExpression {
        if accept("NOT") { return .not(try unary()) }
        if current == .symbol("(") {
            index += 1
            let inner = try orExpression()
            try symbol(")")
            return inner
        }
        return try predicate()
    }

    private mutating func predicate() throws -> NXQLExpression {
        let property = try identifier()
        if case .symbol(let op) = current, ["=", "<>", "!=", "<", "<=", ">", ">="].contains(op) {
            index += 1
            return .compare(property: property, op: op == "!=" ? "<>" : op, value: try literal())
        }
        let negated = accept("NOT")
        if accept("LIKE") || isKeyword("ILIKE") {
            let insensitive = accept("ILIKE")
            guard case .string(let pattern) = try literal(keepString: true) else {
                throw SyntaxError(description: "LIKE needs a string")
            }
            return .like(property: property, pattern: pattern, caseInsensitive: insensitive, negated: negated)
        }
        if accept("IN") {
            try symbol("(")
            var values = [try literal()]
            while current == .symbol(",") { index += 1; values.append(try literal()) }
            try symbol(")")
            return .inList(property: property, values: values, negated: negated)
        }
        if !negated, accept("STARTSWITH") {
            guard case .string(let prefix) = try literal(keepString: true) else {
                throw SyntaxError(description: "STARTSWITH needs a string")
            }
            return .startsWith(property: property, prefix: prefix)
        }
        if !negated, accept("IS") {
            let isNot = accept("NOT")
            try keyword("NULL")
            return .isNull(property: property, negated: isNot)
        }
        throw SyntaxError(description: "expected an operator after \(property) near \(describeCurrent)")
    }

    private mutating func literal(keepString: Bool = false) throws -> NXQLLiteral {
        switch current {
        case .string(let s)?:
            index += 1
            return .string(keepString ? s : Self.unescapeLike(s))
        case .number(let n)?:
            index += 1
            guard let value = Double(n) else { throw SyntaxError(description: "bad number \(n)") }
            return .number(value)
        case .word(let w)? where ["TIMESTAMP", "DATE"].contains(w.uppercased()):
            index += 1
            guard case .string(let text)? = current, let millis = DateCodec.parse(text) else {
                throw SyntaxError(description: "bad \(w.uppercased()) literal near \(describeCurrent)")
            }
            index += 1
            return .timestamp(millis)
        default:
            throw SyntaxError(description: "expected a literal near \(describeCurrent)")
        }
    }

    /// Outside LIKE, `\%` and `\_` are just `%` and `_`.
    static func unescapeLike(_ s: String) -> String {
        s.replacingOccurrences(of: "\\%", with: "%").replacingOccurrences(of: "\\_", with: "_")
    }
}
