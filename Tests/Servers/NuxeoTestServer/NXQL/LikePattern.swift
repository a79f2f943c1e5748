import Foundation

/// SQL `LIKE` matching: `%` any run, `_` one character, `\` escapes the next one.
struct LikePattern {
    private enum Element: Equatable {
        case literal(Character)
        case one
        case any
    }

    private let elements: [Element]

    init(_ pattern: String, caseInsensitive: Bool) {
        var result: [Element] = []
        var escaped = false
        for c in caseInsensitive ? pattern.lowercased() : pattern {
            if escaped { result.append(.literal(c)); escaped = false; continue }
            switch c {
            case "\\": escaped = true
            case "%": result.append(.any)
            case "_": result.append(.one)
            default: result.append(.literal(c))
            }
        }
        if escaped { result.append(.literal("\\")) }
        elements = result
    }

    func matches(_ text: String) -> Bool {
        let chars = Array(text)
        // dp[j]: elements[0..<i] match chars[0..<j]
        var dp = [Bool](repeating: false, count: chars.count + 1)
        dp[0] = true
        for element in elements {
            var next = [Bool](repeating: false, count: chars.count + 1)
            switch element {
            case .any:
                var reachable = false
                for j in 0...chars.count {
                    reachable = reachable || dp[j]
                    next[j] = reachable
                }
            case .one:
                for j in 0..<chars.count where dp[j] { next[j + 1] = true }
            case .literal(let c):
                for j in 0..<chars.count where dp[j] && chars[j] == c { next[j + 1] = true }
            }
            dp = next
        }
        return dp[chars.count]
    }
}
