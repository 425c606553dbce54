import UndoPluginABI

extension UndoPluginFunction {
    /// A perform or inverse function with its parameters' names: their types come from the
    /// function's own C parameters, so an action is declared once, by the function.
    ///
    ///     let insert: @convention(c) (UnsafeMutablePointer<undo_call>?, Int64, UnsafePointer<CChar>?) -> Int32 = ...
    ///     UndoPluginFunction(insert, parameterNames: "position", "text")   // (position: i64, text: string)
    ///
    /// `Int32`, `UInt32`, `Int64`, `UInt64` and `Double` are i32 … f64; `UnsafePointer<CChar>?`
    /// is a string; `UnsafeRawPointer?` followed by `UInt64` is one bytes parameter. A function
    /// of any other shape, or a count of names that differs from its parameters, makes the
    /// plugin's load fail with a message (never a call through the wrong prototype).
    /// - Parameters:
    ///   - function: a `@convention(c)` function returning `Int32`, its first parameter the
    ///     `undo_call` pointer.
    ///   - firstName: the name of its first parameter after the call pointer.
    ///   - otherNames: the names of the others, in order.
    public init<Function>(_ function: Function, parameterNames firstName: String, _ otherNames: String...) {
        self.init(function)
        parameterNames = [firstName] + otherNames
    }

    /// The parameters of this function, from its names and its C parameter types, or why they
    /// cannot be derived (no names, not a C function, types or count that do not fit).
    func derivedParameters() -> Result<[UndoPluginParameter], DerivationProblem> {
        if let problem { return .failure(DerivationProblem(problem)) }
        guard let names = parameterNames else {
            return .failure(DerivationProblem("has no parameter names: write UndoPluginFunction(f, parameterNames: ...)"))
        }
        guard let cTypes = Self.cParameterTypes(of: typeName), !cTypes.isEmpty,
              ["Optional<UnsafeMutablePointer<undo_call>>", "UnsafeMutablePointer<undo_call>"].contains(String(cTypes[0])) else {
            return .failure(DerivationProblem("is \(typeName), which does not take the undo_call pointer first"))
        }
        var types: [UndoValueType] = []
        var index = 1
        while index < cTypes.count {
            let name = String(cTypes[index])
            if let type = UndoValueType.allCases.first(where: { $0 != .bytes && $0.cSwiftTypeNames[0].contains(name) }) {
                types.append(type)
                index += 1
            } else if UndoValueType.bytes.cSwiftTypeNames[0].contains(name), index + 1 < cTypes.count,
                      cTypes[index + 1] == "UInt64" {
                types.append(.bytes)
                index += 2
            } else {
                return .failure(DerivationProblem("is \(typeName): its parameter \(name) is no ABI type (Int32, UInt32, Int64, UInt64, Double, UnsafePointer<CChar>?, UnsafeRawPointer? with UInt64)"))
            }
        }
        guard types.count == names.count else {
            return .failure(DerivationProblem("is \(typeName), which takes \(types.count) \(types.count == 1 ? "parameter" : "parameters") after the undo_call pointer, but \(names.count) \(names.count == 1 ? "name is" : "names are") given (\(names.joined(separator: ", ")))"))
        }
        return .success(zip(names, types).map { UndoPluginParameter($0, $1) })
    }

    /// Why the parameters could not be derived.
    struct DerivationProblem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

extension UndoPluginAction {
    /// An action declared by its functions: the parameters are the perform function's names
    /// and C types (``UndoPluginFunction/init(_:parameterNames:_:)``); the inverse takes its
    /// own when it is given names, else perform's arguments. Add options with the modifiers
    /// (`.coalescing("key", merge: f)`, `.localized(...)`).
    ///
    ///     UndoPluginAction(id: "add", name: "Count",
    ///                      perform: UndoPluginFunction(add, parameterNames: "amount"), inverse: UndoPluginFunction(add))
    ///
    /// A function whose parameters cannot be derived makes the plugin's load fail with a
    /// message naming the action.
    /// - Parameters:
    ///   - id: the local id ("insert"): ASCII letters, digits, '_' and '-', unique in the plugin.
    ///   - name: the brief name shown after "Undo " ("Typing").
    ///   - perform: the perform function, with its parameters' names.
    ///   - inverse: the inverse function; with names when it takes its own parameters (handed
    ///     back by perform with `setInverseArgument`).
    public init(id: String, name: String, perform: UndoPluginFunction, inverse: UndoPluginFunction) {
        var problems: [String] = []
        var parameters: [UndoPluginParameter] = []
        switch perform.derivedParameters() {
        case .success(let derived): parameters = derived
        case .failure(let problem): problems.append("its perform function \(problem.message)")
        }
        var inverseParameters: [UndoPluginParameter]? = nil
        if inverse.parameterNames != nil {
            switch inverse.derivedParameters() {
            case .success(let derived): inverseParameters = derived
            case .failure(let problem): problems.append("its inverse function \(problem.message)")
            }
        }
        self.init(declaring: id, name: name, parameters: parameters, perform: perform,
                  inverseParameters: inverseParameters, inverse: inverse)
        declarationProblems = problems
    }
}
