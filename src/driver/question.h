// `--question`: would a build run anything? The scan a build starts with
// (manifest regeneration, targets, validations, content hashing when on),
// then nothing: no command, no log written, no status printed.
#ifndef RONIN_DRIVER_QUESTION_H_
#define RONIN_DRIVER_QUESTION_H_

namespace ronin {

class NinjaMain;
class Status;

// Exit statuses of --question.
enum QuestionAnswer { kUpToDate = 0, kWorkDue = 1, kQuestionError = 2 };

// Scans the manifest (when it is a target) and the requested targets
// (`argc` words of `argv`; the defaults when none) of a loaded NinjaMain.
// With -d explain, the reasons of every command that would run go to
// stderr, in manifest order. Errors are printed as a build prints them.
QuestionAnswer AnswerQuestion(NinjaMain* ninja, const char* input_file, int argc, char** argv, Status* status);

}  // namespace ronin

#endif  // RONIN_DRIVER_QUESTION_H_
