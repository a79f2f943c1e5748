import Foundation
import ProviderAPI
import HTTPProviderKit

/// Field readers used by the entity decoders: lenient about representation, strict about shape.
extension JSONValue {
    /// The members of an entity object, or `invalidResponse` when this is not an object.
    func entityMembers(_ entity: String) throws -> [String: JSONValue] {
        guard case .object(let members) = self else {
            throw ProviderError(.invalidResponse, "a Nuxeo \(entity) must be a JSON object")
        }
        return members
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A required string-like field (a number is read as its text).
    func requiredString(_ key: String, in entity: String) throws -> String {
        guard let value = self[key], let text = value.stringValue else {
            throw ProviderError(.invalidResponse, "a Nuxeo \(entity) needs a string \"\(key)\"")
        }
        return text
    }

    /// An optional string-like field: missing or null is `nil`; an array or object is `invalidResponse`.
    func optionalString(_ key: String, in entity: String) throws -> String? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let text = value.stringValue else {
            throw ProviderError(.invalidResponse, "\"\(key)\" of a Nuxeo \(entity) must be a string")
        }
        return text
    }

    /// An optional boolean, from a boolean, a `"true"`/`"false"` string or 0/1.
    func optionalBool(_ key: String, in entity: String) throws -> Bool? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let flag = value.boolValue else {
            throw ProviderError(.invalidResponse, "\"\(key)\" of a Nuxeo \(entity) must be a boolean")
        }
        return flag
    }

    /// An optional integer, from a number or a numeric string.
    func optionalInt(_ key: String, in entity: String) throws -> Int? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let number = value.intValue else {
            throw ProviderError(.invalidResponse, "\"\(key)\" of a Nuxeo \(entity) must be an integer")
        }
        return number
    }

    /// An optional 64-bit integer, from a number or a numeric string.
    func optionalInt64(_ key: String, in entity: String) throws -> Int64? {
        guard let value = self[key], !value.isNull else { return nil }
        guard let number = value.int64Value else {
            throw ProviderError(.invalidResponse, "\"\(key)\" of a Nuxeo \(entity) must be an integer")
        }
        return number
    }

    /// An optional date in any of the forms ``NuxeoDateParser`` reads; an unreadable date is `nil`, not an error.
    func optionalDate(_ key: String) -> Date? {
        guard let value = self[key] else { return nil }
        return NuxeoDateParser.date(from: value)
    }

    /// An optional object; missing or null is empty; any other shape is `invalidResponse`.
    func optionalObject(_ key: String, in entity: String) throws -> [String: JSONValue] {
        guard let value = self[key], !value.isNull else { return [:] }
        if case .array(let elements) = value, elements.isEmpty { return [:] }  // PHP-era servers write [] for {}
        guard let members = value.objectValue else {
            throw ProviderError(.invalidResponse, "\"\(key)\" of a Nuxeo \(entity) must be an object")
        }
        return members
    }

    /// An optional array; missing or null is empty; any other shape is `invalidResponse`.
    func optionalArray(_ key: String, in entity: String) throws -> [JSONValue] {
        guard let value = self[key], !value.isNull else { return [] }
        guard let elements = value.arrayValue else {
            throw ProviderError(.invalidResponse, "\"\(key)\" of a Nuxeo \(entity) must be an array")
        }
        return elements
    }

    /// An optional array of strings; non-string elements are `invalidResponse`.
    func optionalStrings(_ key: String, in entity: String) throws -> [String] {
        try optionalArray(key, in: entity).map { element in
            guard case .string(let text) = element else {
                throw ProviderError(.invalidResponse, "\"\(key)\" of a Nuxeo \(entity) must hold strings")
            }
            return text
        }
    }
}
