/// Cuts a part out of a whole view, for plugins without describe_range (ABI 1.8), by the
/// convention of the sample plugins (and of undo-host's highlights): locations count the
/// view's Unicode scalars, where markup tags such as `<b>` and `</i>` take no room. The part
/// is what the text editor's describe_range writes: the tags open where it starts are
/// opened, those inside it kept, those open where it ends closed.
enum ViewExcerpt {
    /// The part of `view` from visible character `range.lowerBound` up to `range.upperBound`
    /// (clamped to the view), the range after clamping, and the count of visible characters.
    /// - Complexity: O(view): the whole view is read to count its characters.
    static func cut(_ view: String, range: Range<Int64>) -> (text: String, range: Range<Int64>, extent: Int64) {
        let scalars = Array(view.unicodeScalars)
        var visible: Int64 = 0
        var open: [String] = []
        var output = String.UnicodeScalarView()
        var started = false
        var index = 0
        while index < scalars.count {
            if let tag = markupTag(at: index, in: scalars) {
                let inside = started && visible < range.upperBound
                if inside { output.append(contentsOf: scalars[index..<index + tag.length]) }
                if tag.isClosing {
                    if let last = open.lastIndex(of: tag.name) { open.remove(at: last) }
                } else {
                    open.append(tag.name)
                }
                index += tag.length
                continue
            }
            if visible >= range.lowerBound && visible < range.upperBound {
                if !started {
                    started = true
                    for name in open { output.append(contentsOf: "<\(name)>".unicodeScalars) }
                }
                output.append(scalars[index])
            }
            visible += 1
            index += 1
            if visible == range.upperBound && started {
                for name in open.reversed() { output.append(contentsOf: "</\(name)>".unicodeScalars) }
                started = false
                // The rest is only counted.
                while index < scalars.count {
                    if let tag = markupTag(at: index, in: scalars) { index += tag.length; continue }
                    visible += 1
                    index += 1
                }
            }
        }
        if started { for name in open.reversed() { output.append(contentsOf: "</\(name)>".unicodeScalars) } }
        let lower = min(max(0, range.lowerBound), visible)
        let upper = min(max(lower, range.upperBound), visible)
        return (String(output), lower..<upper, visible)
    }

    /// The markup tag at `index` (`<b>`, `</i>`: a '<', an optional '/', one to eight ASCII
    /// letters, a '>'), or `nil`.
    static func markupTag(at index: Int, in scalars: [Unicode.Scalar]) -> (name: String, isClosing: Bool, length: Int)? {
        guard scalars[index] == "<" else { return nil }
        var cursor = index + 1
        let isClosing = cursor < scalars.count && scalars[cursor] == "/"
        if isClosing { cursor += 1 }
        var name = String.UnicodeScalarView()
        while cursor < scalars.count && name.count <= 8
            && (("a"..."z").contains(scalars[cursor]) || ("A"..."Z").contains(scalars[cursor])) {
            name.append(scalars[cursor])
            cursor += 1
        }
        guard name.count >= 1 && name.count <= 8, cursor < scalars.count, scalars[cursor] == ">" else { return nil }
        return (String(name), isClosing, cursor + 1 - index)
    }
}
