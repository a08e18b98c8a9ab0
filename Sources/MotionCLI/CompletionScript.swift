import WakeCost

/// Shell completion scripts generated from the command specs (`motionbatch
/// --generate-completion-script bash|zsh|fish`, as swift-argument-parser's): subcommands, every
/// option of the command being typed, built-in board and chip names after `--board`/`--chips`,
/// directories after a `DIR` value, file names after a `FILE`/`PATH` value and for positional
/// arguments. The Debian package and `scripts/install.sh` install them.
public enum CompletionScript {
    /// A shell a script can be generated for.
    public enum Shell: String, CaseIterable, Sendable {
        case bash, zsh, fish
    }

    /// What completes an option's value.
    enum ValueKind: Equatable {
        /// Fixed words (board or chip names), files too when `files`.
        case words([String], files: Bool)
        /// File names.
        case files
        /// Directory names.
        case directories
        /// Nothing to propose (a number, a duration, ...).
        case none
    }

    /// What completes the value of `option`.
    static func valueKind(_ option: OptionSpec) -> ValueKind {
        switch option.name {
        case "board": return .words(BoardProfile.builtIn.map(\.name), files: true)
        case "chips": return .words(FIFOChip.builtIn.map(\.name), files: true)
        default: break
        }
        switch option.valueName {
        case "DIR": return .directories
        case "FILE", "PATH": return .files
        default: return .none
        }
    }

    /// Every command path below the root (`["eval", "steps"]`, ...) with its command, root first (`[]`).
    static func paths(_ root: CommandSpec) -> [(path: [String], command: CommandSpec)] {
        ManPage.pages(root).map { (Array($0.chain.dropFirst().map(\.name)), $0.chain.last!) }
    }

    /// The script for `shell`.
    static func script(for root: CommandSpec, shell: Shell) -> String {
        switch shell {
        case .bash: bash(root)
        case .zsh: zsh(root)
        case .fish: fish(root)
        }
    }

    private static func optionWords(_ c: CommandSpec) -> [String] {
        c.options.flatMap { o in (o.short.map { ["-\($0)"] } ?? []) + ["--" + o.name] } + ["-h", "--help", "-V", "--version"]
    }

    private static func bash(_ root: CommandSpec) -> String {
        let fn = "_" + root.name.replacingDashes()
        var s = "# bash completion for \(root.name) (generated: \(root.name) --generate-completion-script bash)\n"
        s += "\(fn)() {\n"
        s += "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\" path=\"\" i w opts=\"\" subs=\"\" files=0\n"
        s += "    for ((i = 1; i < COMP_CWORD; i++)); do\n        w=\"${COMP_WORDS[i]}\"\n"
        s += "        case \"${path:+$path }$w\" in\n"
        let all = paths(root).filter { !$0.path.isEmpty }
        s += "            " + all.map { "\"\($0.path.joined(separator: " "))\"" }.joined(separator: "|") + ") path=\"${path:+$path }$w\" ;;\n"
        s += "        esac\n    done\n"
        s += "    case \"$path\" in\n"
        for (path, c) in paths(root) {
            s += "        \"\(path.joined(separator: " "))\")\n"
            s += "            opts=\"\(optionWords(c).joined(separator: " "))\"\n"
            if !c.subcommands.isEmpty { s += "            subs=\"\(c.subcommands.map(\.name).joined(separator: " "))\"\n" }
            if !c.arguments.isEmpty { s += "            files=1\n" }
            var valueCases: [String] = []
            for o in c.options where o.takesValue {
                let names = ((o.short.map { ["-\($0)"] } ?? []) + ["--" + o.name]).joined(separator: "|")
                switch valueKind(o) {
                case .words(let w, let files):
                    valueCases.append("                \(names)) COMPREPLY=($(compgen -W \"\(w.joined(separator: " "))\" -- \"$cur\"))\(files ? "; COMPREPLY+=($(compgen -f -- \"$cur\"))" : ""); return ;;")
                case .files: valueCases.append("                \(names)) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;")
                case .directories: valueCases.append("                \(names)) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;")
                case .none: valueCases.append("                \(names)) return ;;")
                }
            }
            if !valueCases.isEmpty {
                s += "            case \"$prev\" in\n" + valueCases.joined(separator: "\n") + "\n            esac\n"
            }
            s += "            ;;\n"
        }
        s += "    esac\n"
        s += "    if [[ \"$cur\" == -* ]]; then\n        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n    else\n"
        s += "        COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
        s += "        if [ \"$files\" = 1 ]; then COMPREPLY+=($(compgen -f -- \"$cur\")); fi\n    fi\n}\n"
        s += "complete -o filenames -F \(fn) \(root.name)\n"
        return s
    }

    private static func zsh(_ root: CommandSpec) -> String {
        let fn = "_" + root.name.replacingDashes()
        var s = "#compdef \(root.name)\n# zsh completion for \(root.name) (generated: \(root.name) --generate-completion-script zsh)\n"
        s += "\(fn)() {\n    local path_=\"\" w i\n    local -a opts subs\n    local files=0\n"
        s += "    for ((i = 2; i < CURRENT; i++)); do\n        w=${words[i]}\n        case \"${path_:+$path_ }$w\" in\n"
        let all = paths(root).filter { !$0.path.isEmpty }
        s += "            " + all.map { "\"\($0.path.joined(separator: " "))\"" }.joined(separator: "|") + ") path_=\"${path_:+$path_ }$w\" ;;\n"
        s += "        esac\n    done\n    local prev=${words[CURRENT-1]} cur=${words[CURRENT]}\n    case \"$path_\" in\n"
        for (path, c) in paths(root) {
            s += "        \"\(path.joined(separator: " "))\")\n"
            s += "            opts=(\(optionWords(c).map { "'\($0)'" }.joined(separator: " ")))\n"
            if !c.subcommands.isEmpty {
                s += "            subs=(\(c.subcommands.map { "'\($0.name):\(zshQuoted($0.abstract))'" }.joined(separator: " ")))\n"
            }
            if !c.arguments.isEmpty { s += "            files=1\n" }
            var valueCases: [String] = []
            for o in c.options where o.takesValue {
                let names = ((o.short.map { ["-\($0)"] } ?? []) + ["--" + o.name]).joined(separator: "|")
                switch valueKind(o) {
                case .words(let w, let files):
                    valueCases.append("                \(names)) compadd -- \(w.joined(separator: " "))\(files ? "; _files" : ""); return ;;")
                case .files: valueCases.append("                \(names)) _files; return ;;")
                case .directories: valueCases.append("                \(names)) _files -/; return ;;")
                case .none: valueCases.append("                \(names)) return ;;")
                }
            }
            if !valueCases.isEmpty { s += "            case \"$prev\" in\n" + valueCases.joined(separator: "\n") + "\n            esac\n" }
            s += "            ;;\n"
        }
        s += "    esac\n"
        s += "    if [[ $cur == -* ]]; then\n        compadd -- $opts\n    else\n"
        s += "        (( ${#subs} )) && _describe 'subcommand' subs\n        (( files )) && _files\n    fi\n}\n"
        s += "\(fn) \"$@\"\n"
        return s
    }

    private static func fish(_ root: CommandSpec) -> String {
        let name = root.name
        var s = "# fish completion for \(name) (generated: \(name) --generate-completion-script fish)\n"
        s += "complete -c \(name) -f\n"
        for (path, c) in paths(root) {
            // The condition: every word of the path seen, and none of the path's subcommands yet.
            var conds = path.isEmpty ? ["__fish_use_subcommand"] : path.map { "__fish_seen_subcommand_from \($0)" }
            if !path.isEmpty && !c.subcommands.isEmpty {
                conds.append("not __fish_seen_subcommand_from \(c.subcommands.map(\.name).joined(separator: " "))")
            }
            let cond = conds.joined(separator: "; and ")
            for sub in c.subcommands {
                s += "complete -c \(name) -n '\(cond)' -a \(sub.name) -d '\(fishQuoted(sub.abstract))'\n"
            }
            if !c.arguments.isEmpty { s += "complete -c \(name) -n '\(cond)' -F\n" }
            for o in c.options {
                var line = "complete -c \(name) -n '\(cond)' -l \(o.name)"
                if let sh = o.short { line += " -s \(sh)" }
                if o.takesValue {
                    switch valueKind(o) {
                    case .words(let w, let files): line += " -r\(files ? " -F" : "") -a '\(w.joined(separator: " "))'"
                    case .files: line += " -r -F"
                    case .directories: line += " -r -a '(__fish_complete_directories)'"
                    case .none: line += " -x"
                    }
                }
                s += line + " -d '\(fishQuoted(o.help))'\n"
            }
            s += "complete -c \(name) -n '\(cond)' -s h -l help -d 'Show help information.'\n"
            s += "complete -c \(name) -n '\(cond)' -s V -l version -d 'Show the version.'\n"
        }
        return s
    }

    /// The first sentence of `text` on one line, for a description.
    private static func firstSentence(_ text: String) -> String {
        let line = text.split(separator: "\n").joined(separator: " ")
        if let dot = line.firstRange(of: ". ") { return String(line[..<dot.lowerBound]) + "." }
        return line
    }

    private static func zshQuoted(_ text: String) -> String {
        firstSentence(text).replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:")
    }

    private static func fishQuoted(_ text: String) -> String {
        firstSentence(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }
}

extension String {
    /// The name with `-` as `_` (a shell function name).
    fileprivate func replacingDashes() -> String { String(map { $0 == "-" ? "_" : $0 }) }
}
