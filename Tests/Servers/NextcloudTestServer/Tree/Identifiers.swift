import Foundation

/// Ids and etags in the shapes ownCloud and Nextcloud use.
enum Identifiers {
    /// A folder etag: 13 hex digits, like PHP's `uniqid()` (`5f4c9af3e3fbc`): 8 of time, 5 of a serial.
    static func folderETag(serial: Int64) -> String {
        hex(UInt64(Date().timeIntervalSince1970), width: 8) + hex(UInt64(serial) & 0xFFFFF, width: 5)
    }

    /// A file etag: 32 hex digits, like Nextcloud's md5-shaped file etags.
    static func fileETag() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in hex(UInt64(generator.next() as UInt32), width: 8) }.joined()
    }

    static func hex(_ value: UInt64, width: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// `oc:id`: the file id padded to 8 digits, then the instance id (`00000015ocnq90xhpk22`).
    static func ocID(_ fileID: Int64, instance: String) -> String {
        let digits = String(fileID)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + instance
    }

    /// An instance id: `oc` and 10 lowercase letters or digits.
    static func instanceID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return "oc" + String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// A share token: 15 letters and digits.
    static func shareToken() -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<15).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
