import Foundation
import ProviderAPI
import HTTPProviderKit

extension JSONValue {
    /// The value as a date: an ISO-8601 string (0–9 fraction digits, `Z` or an offset) or epoch milliseconds.
    package var dateValue: Date? { NuxeoDateParser.date(from: self) }
}
