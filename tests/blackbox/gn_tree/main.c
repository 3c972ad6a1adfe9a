void greet(const char*);
void shout(const char*);
const char* version(void);
int main(void) { greet("gn"); shout(version()); return 0; }
