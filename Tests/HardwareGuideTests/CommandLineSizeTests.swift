// The command line parses, prints and reads keys (issue 38): Sources/motorbreath stays at most 2,800 lines
// and no function, init or computed property body in it is over 40 lines, so product logic goes into the
// libraries instead of growing back into the CLI. A small brace-matching scanner measures each body.
// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing
import TestSupport

/// A function-like body in Swift source (`func`, `init`, or a computed property `var x: T {`): where it
/// starts and how many lines it spans, from its first line to the line of its closing brace.
struct FunctionSpan: Equatable {
    let line: Int
    let lines: Int
    let name: String

    static let declaration = try! NSRegularExpression(
        pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|class|override|mutating|nonmutating|final|convenience|required|nonisolated)\s+)*(?:func\s+\S|init[?!]?\s*[(<]|(?:var|let)\s+\w+\s*:[^=]*\{\s*$)"#)

    /// Every span in `text`.
    static func scan(_ text: String) -> [FunctionSpan] {
        let source = text.components(separatedBy: "\n")
        let code = CodeOnly.lines(source)
        var found: [FunctionSpan] = []
        for (index, line) in code.enumerated() {
            let ns = line as NSString
            guard declaration.firstMatch(in: line, range: NSRange(location: 0, length: ns.length)) != nil else { continue }
            if let end = bodyEnd(code, from: index) {
                found.append(FunctionSpan(line: index + 1, lines: end - index + 1,
                                          name: source[index].trimmingCharacters(in: .whitespaces)))
            }
        }
        return found
    }

    /// The line of the brace closing the body that starts at or after `start`; nil for a declaration without
    /// a body (a protocol requirement): its signature ends on a line that does not open one.
    static func bodyEnd(_ code: [String], from start: Int) -> Int? {
        var depth = 0, parens = 0, opened = false
        for index in start..<code.count {
            for c in code[index] {
                switch c {
                case "(": parens += 1
                case ")": parens -= 1
                case "{": depth += 1; opened = true
                case "}": depth -= 1
                default: break
                }
            }
            if opened && depth <= 0 { return index }
            if !opened && parens <= 0 {
                let next = index + 1 < code.count ? code[index + 1].trimmingCharacters(in: .whitespaces) : ""
                let continues = ["->", "throws", "rethrows", "where", "async", "{"].contains { next.hasPrefix($0) }
                if !continues && !code[index].trimmingCharacters(in: .whitespaces).hasSuffix(",") { return nil }
            }
        }
        return nil
    }
}

/// Swift source with comments and string literals (single-line, multi-line, raw) blanked, interpolations
/// kept as code: what is left has only the braces and parentheses that structure the code.
enum CodeOnly {
    enum Mode { case code(parens: Int), string, multiline, raw }

    static func lines(_ source: [String]) -> [String] {
        var stack: [Mode] = [.code(parens: 0)]
        var block = 0
        return source.map { line in
            var out = ""
            let chars = Array(line)
            var i = 0
            func at(_ s: String) -> Bool { Array(s).enumerated().allSatisfy { i + $0.offset < chars.count && chars[i + $0.offset] == $0.element } }
            while i < chars.count {
                if block > 0 {
                    if at("*/") { block -= 1; i += 2 } else if at("/*") { block += 1; i += 2 } else { i += 1 }
                    continue
                }
                switch stack[stack.count - 1] {
                case .code(let parens):
                    if at("//") { i = chars.count; continue }
                    if at("/*") { block += 1; i += 2; continue }
                    if at("\"\"\"") { stack.append(.multiline); i += 3; continue }
                    if at("#\"") { stack.append(.raw); i += 2; continue }
                    if chars[i] == "\"" { stack.append(.string); i += 1; continue }
                    if chars[i] == "(" { stack[stack.count - 1] = .code(parens: parens + 1) }
                    if chars[i] == ")" {
                        if parens == 0 && stack.count > 1 { stack.removeLast(); i += 1; continue }  // an interpolation ends
                        stack[stack.count - 1] = .code(parens: parens - 1)
                    }
                    out.append(chars[i])
                    i += 1
                case .string, .multiline:
                    let multiline = if case .multiline = stack[stack.count - 1] { true } else { false }
                    if at("\\(") { stack.append(.code(parens: 0)); i += 2 } else if chars[i] == "\\" { i += 2 } else if !multiline && chars[i] == "\"" {
                        stack.removeLast(); i += 1
                    } else if multiline && at("\"\"\"") { stack.removeLast(); i += 3 } else { i += 1 }
                case .raw:
                    if at("\"#") { stack.removeLast(); i += 2 } else { i += 1 }
                }
            }
            if case .string = stack[stack.count - 1] { stack.removeLast() }  // a single-line string never spans lines
            return out
        }
    }
}

@Suite(.tags(.fast), .timeLimit(.minutes(10))) struct CommandLineSizeTests {
    static let maxLines = 2800
    static let maxFunctionLines = 40

    /// Every Swift file of the command-line target, relative to the repository, with its text.
    static func files() throws -> [(path: String, text: String)] {
        let root = repositoryRoot.appendingPathComponent("Sources/motorbreath")
        let urls = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        return try urls.map { url in
            (String(url.standardizedFileURL.path.dropFirst(repositoryRoot.standardizedFileURL.path.count + 1)),
             try String(contentsOf: url, encoding: .utf8))
        }.sorted { $0.path < $1.path }
    }

    @Test("Sources/motorbreath is at most 2,800 lines")
    func theCommandLineStaysSmall() throws {
        let files = try Self.files()
        #expect(files.count > 20, "found only \(files.count) files; is Sources/motorbreath moved?")
        let total = files.reduce(0) { $0 + $1.text.split(separator: "\n", omittingEmptySubsequences: false).count - ($1.text.hasSuffix("\n") ? 1 : 0) }
        #expect(total <= Self.maxLines, "Sources/motorbreath has \(total) lines, more than \(Self.maxLines): move product logic into a library")
    }

    @Test("no function in Sources/motorbreath is over 40 lines")
    func noLongFunctions() throws {
        var scanned = 0
        for (path, text) in try Self.files() {
            for span in FunctionSpan.scan(text) {
                scanned += 1
                #expect(span.lines <= Self.maxFunctionLines, "\(path):\(span.line): \(span.name) is \(span.lines) lines (at most \(Self.maxFunctionLines))")
            }
        }
        #expect(scanned > 100, "the scanner found only \(scanned) functions")
    }

    @Test("the scanner matches braces past strings, interpolations, comments and protocol requirements")
    func scannerMeasuresBodies() {
        let text = #"""
            protocol P {
                func required() -> Int
                static func value(_ text: String) throws -> Self
            }
            struct S {
                func a() {
                    let s = "} \(x ? "{" : "}") {"
                    // }
                }
                init(x: Int,
                     y: Int) {
                    _ = """
                    }}}
                    """
                }
                var computed: Int {
                    /* { */ 1
                }
                func b()
                    -> Int
                {
                    2
                }
            }
            """#
        let spans = FunctionSpan.scan(text)
        #expect(spans.map(\.line) == [6, 10, 16, 19], "\(spans)")
        #expect(spans.map(\.lines) == [4, 6, 3, 5], "\(spans)")
    }
}
