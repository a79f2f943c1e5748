import Foundation
import ProviderAPI

/// Temporary.
public struct ConformanceProbe: Sendable { public init() {} }
