/// A size in the largest binary unit that leaves it at least 1 (up to TiB), as `ls` shows sizes:
/// the scaling both size references of the tests start from (the string-built `Output.size` of
/// before `TableLine`, and `String(format: "%.1f")`), which then round in their own ways.
enum ReferenceSize {
    static func scaled(_ bytes: Int64) -> (value: Double, unit: String) {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return (value, units[unit])
    }
}
