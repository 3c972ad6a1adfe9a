int tool_start(void) { return 0; }
