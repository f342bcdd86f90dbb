/** The CLI's exit codes (README "Exit codes"). */
export const EXIT_OK = 0;
/** Changes pending (dry run, --check) or findings a human must act on. */
export const EXIT_PENDING = 1;
/** Usage, I/O or parse errors. */
export const EXIT_ERROR = 2;
