extension SessionText {
    /// Every string of the table, with ``catalogArgument`` in place of each value it is given:
    /// what tests compare across languages (no English left in a Korean session).
    var catalog: [String] {
        let x = Self.catalogArgument
        var all = [
            steps(1), steps(2), editMenu, disabled, history, noSteps, done(1, of: 2), start, group(of: 1), group(of: 2),
            discardable, saved, undone, unnamed, inverseArguments, alert, choose(3, keys: x), choose(1, keys: x), empty, linesAbove(1), linesAbove(2),
            linesBelow(1), linesBelow(2), charactersAbove(1), charactersAbove(2), charactersBelow(1), charactersBelow(2), excerptHint, vanished, noPluginHasIt, viewCut(shown: 1, of: 2), cancelled, documents, edited, noPluginsLoaded,
            from(x), coalesces, saved(x), forgotSave(x), cancelledGroup(x, changes: true), cancelledGroup(nil, changes: true), cancelledGroup(x, changes: false), cancelledGroup(nil, changes: false), limit(nil, kept: 2), limit(3, kept: 2), notALimit(x), closed(x, removed: 2, now: x), movedSteps(undo: true, count: 2, newest: x),
            movedSteps(undo: false, count: 2, newest: nil), movedTo(undo: true, target: 1, count: 2, newest: x),
            movedTo(undo: false, target: 1, count: 1, newest: nil), leftHistory(obsolete: 1, moved: 1, name: x),
            leftHistory(obsolete: 1, moved: 1, name: nil), leftHistory(obsolete: 1, moved: 3, name: x), leftHistory(obsolete: 2, moved: 3, name: x), performedNothing(x), alreadyAt(1), revertToSaved,
            loaded(x, x, x, actions: 2), skipped(x, x), noPlugins(in: x), unloaded(x, removed: 2),
            errorPrefix, column(1), hint, usage(x), didYouMean(x), noGroupOpen, beginGroupHint, ambiguous(x),
            writeOneOf(x), noPluginsHint, listActionsHint, unknownAction(x), unknownCommand(x), argument(1), expected(x),
            phase(.perform), phase(.redo), phase(.undo), phase(.describe), phase(.merge), phase(.close), failed(x, phase: x, x), pluginRefusedHint,
            pluginCrashedHint,
            noPlugin(x), listPluginsHint, groupOpen(nil), groupOpen(x), endGroupHint, notLeaving, historyUnchangedHint,
            noDocument(x), listDocumentsHint, nothingTo(undo: true, in: x), nothingTo(undo: false, in: x),
            disabledItemHint(undo: true), disabledItemHint(undo: false), noStep(undo: true, 1), stepNumbersHint,
            alreadyPast(undo: true, target: 1, current: 2), alreadyPast(undo: false, target: 1, current: 2), use(x),
            nothingToRevert(x), revertHint, notAChoice(x), chooseHint([x]), choiceOption(1, "u", x),
            expectMissingCommand, expectSucceeded(x, x), expectSucceededHint(x), expectGot(x, x, x), noSuchPath(x),
            pluginPathHint, cannotLoad(x, x), sharedObjectHint, entryHint, rebuildHint, duplicateHint, writableHint,
            unexpectedWord(x, x), missingArgument(x), notAnErrorCode(x), codesHint(x), notAStepNumber(x, x),
            stepNumberHint, notACount(x, x), unclosedQuote, quoteHint, unknownEscape(x), escapeHint, neverEnded(nil), neverEnded(x), endGroupAfterHint,
            checkpointWritten(after: 1, steps: 2, documents: 1, bytes: 1), checkpointWritten(after: 2, steps: 1, documents: 2, bytes: 1234),
            noJournalOpen, journalOptionHint, cannotSaveDocuments(x),
            changesStayHint, checkpointNotWrittenHint, automaticCheckpointFailed(x), notRepeatedHint, warning(x, hint: x), warning(x, hint: nil),
            banner(version: x, plugins: x), banner(version: x, plugins: nil), bannerHelp, kept, yesNo,
            askUnload(x, steps: 2), askClose(x), askQuit([x]), askQuit([x, x]), demoEnd, cannotRead(x, x),
            warningCannotLoad(x, x, hint: x), warningCannotLoad(x, x, hint: nil), noSuchPluginsPath(x),
            needsJournal(x), badPluginWatchdog(-1), badDurability(x), badCheckpointInterval(x), journalUnchangedHint, journalNotChanged, bundledPluginHint(id: x, file: x), helpAdvice, otherPluginsLoaded,
            documentNameTooLong(limit: 1, bytes: 2),
            journalRestored(x, changes: 1), journalRestored(x, changes: 2), journalRestored(x, checkpointAfter: 1, then: 0),
            journalRestored(x, checkpointAfter: 1, then: 1), journalRestored(x, checkpointAfter: 1, then: 2),
            journalUpgraded(x, to: 4, keptAt: x), journalWarning(x, x), journalGroupOpen(x, x), journalGroupOpen(x, nil),
            neverEndedFromJournal(x), neverEndedFromJournal(nil), endOrCancelGroupHint, endGroupOrCtrlDHint,
            leavingWithOpenGroup(x), leavingWithOpenGroup(nil), askQuit([x], journal: x), askQuit([x, x], journal: x),
            historyTree, wasSaved, nextRedo, treeSummary(steps: 2, branches: 1, at: 1), treeSummary(steps: 1, branches: 2, at: 1), global, current,
            ago(seconds: 1), ago(seconds: 120), ago(seconds: 7200), ago(seconds: 172_800), goToState(1), alreadyAtState(1),
            travel(earlier: true, x), travel(earlier: false, x), travelled(x, state: 1, steps: 2), nothingFurther(earlier: true),
            nothingFurther(earlier: false), treeHint, noState(1), notADistance(x, x), distanceHint, notAStateNumber(x), stateNumbersHint,
            commandsHeading, performDescription, helpNotes, noActions, actionsHeading, inverseTakes(x), coalesceNote,
        ]
        all += demoHeadings
        all += journalCatalog
        all += timeTravelCatalog
        all += SessionCommand.names.map(commandDescription)
        return all
    }

    /// Stands for a value (a name, a number, a path) in ``catalog``.
    static let catalogArgument = "\u{1}"
}
