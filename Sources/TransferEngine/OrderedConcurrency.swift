/// `body` applied to every element, at most `limit` at once, the results in the elements'
/// order whatever finishes first; the first error thrown ends it (the others are cancelled).
package func concurrentMap<Element: Sendable, Result: Sendable>(
    _ elements: [Element], limit: Int, _ body: @escaping @Sendable (Element) async throws -> Result
) async throws -> [Result] {
    if elements.count == 1 { return [try await body(elements[0])] }
    return try await withThrowingTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: elements.count)
        var started = 0
        func start() {
            let (index, element) = (started, elements[started])
            group.addTask { (index, try await body(element)) }
            started += 1
        }
        while started < min(max(1, limit), elements.count) { start() }
        while let (index, result) = try await group.next() {
            results[index] = result
            if started < elements.count { start() }
        }
        return results.compactMap { $0 }
    }
}
