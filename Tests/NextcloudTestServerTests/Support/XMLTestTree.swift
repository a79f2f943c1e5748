import Foundation
import ProviderAPI
import HTTPProviderKit

/// Reads values out of OCS XML answers.
enum XMLTestTree {
    struct Tree {
        let root: XMLElementTree

        /// The text of the element at `path` below the root.
        func text(at path: [String]) -> String? {
            var current = root
            for name in path {
                guard let next = current.child(name) else { return nil }
                current = next
            }
            return current.text
        }
    }

    static func parse(_ data: Data) throws -> Tree { Tree(root: try XMLElementTree.parse(data)) }
}
