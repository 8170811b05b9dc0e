"""Names the C and C++ standard libraries give every file: a bare call of one that the workspace
does not define is ``external`` (not ``unresolved``), and the everyday method names of the
standard containers and strings, which make a one-definition by-name match no evidence."""

from __future__ import annotations

# The C standard library and the POSIX calls C code makes most (a workspace definition of one of
# these still wins: the lookup asks the workspace first).
STANDARD_NAMES = frozenset(
    """abort abs atexit atof atoi atol atoll bsearch calloc clock ctime difftime div exit _exit fabs fclose
    feof ferror fflush fgetc fgets floor ceil fmod fopen fprintf fputc fputs fread free freopen frexp fscanf
    fseek ftell fwrite getc getchar getenv gmtime isalnum isalpha iscntrl isdigit isgraph islower isprint
    ispunct isspace isupper isxdigit labs ldexp ldiv localeconv localtime log log10 log2 longjmp malloc
    memchr memcmp memcpy memmove memset mktime modf perror pow printf putc putchar puts qsort raise rand
    realloc remove rename rewind scanf setbuf setjmp setlocale setvbuf signal sin cos tan asin acos atan
    atan2 sinh cosh tanh exp sqrt snprintf sprintf srand sscanf strcat strchr strcmp strcoll strcpy strcspn
    strerror strftime strlen strncat strncmp strncpy strpbrk strrchr strspn strstr strtod strtof strtol
    strtold strtoll strtoul strtoull strxfrm system time tmpfile tmpnam tolower toupper ungetc vfprintf
    vprintf vsnprintf vsprintf va_start va_end va_arg va_copy assert errno close open read write lseek
    fork execv execvp waitpid pipe dup dup2 getpid kill sleep usleep nanosleep gettimeofday clock_gettime
    mmap munmap mprotect stat fstat lstat unlink mkdir rmdir opendir readdir closedir fcntl ioctl poll
    select socket bind listen accept connect send recv sendto recvfrom shutdown getaddrinfo freeaddrinfo
    pthread_create pthread_join pthread_mutex_lock pthread_mutex_unlock pthread_mutex_init
    pthread_mutex_destroy pthread_cond_wait pthread_cond_signal pthread_cond_broadcast pthread_cond_init
    pthread_cond_destroy pthread_self pthread_once dlopen dlsym dlclose dlerror strdup strndup fileno
    isatty popen pclose fdopen getline realpath basename dirname sysconf nan nanf isnan isinf fmax fmin
    round lround trunc frexpf ldexpf powf sqrtf floorf ceilf fmodf fabsf expm1 log1p cbrt hypot
    sizeof alignof static_cast dynamic_cast reinterpret_cast const_cast move forward swap min max""".split()
)

# Method names of the standard containers, strings, streams and smart pointers beyond the shared
# list (``_toolkit.COMMON_METHOD_NAMES``, never copied here).
COMMON_METHODS = frozenset(
    {"at", "back", "begin", "c_str", "capacity", "cbegin", "cend", "data", "emplace", "emplace_back", "empty",
     "end", "erase", "first", "front", "length", "pop_back", "pop_front", "push_back", "push_front", "rbegin",
     "rend", "reserve", "resize", "second", "shrink_to_fit", "str", "substr", "swap", "use_count", "value",
     "value_or", "what", "lock", "unlock", "try_lock", "notify_one", "notify_all", "load", "store"}
)
