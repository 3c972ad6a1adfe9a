namespace detail {
inline int product(int a, int b) { return a * b; }
}
