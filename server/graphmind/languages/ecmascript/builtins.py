"""Names ECMAScript code uses without declaring them, and methods of builtin types."""

from __future__ import annotations

# Names every script sees without a declaration: the language, Node, browsers, test runners.
GLOBALS = frozenset(
    """
    console JSON Math Object Array String Number Boolean Promise Date Error TypeError RangeError SyntaxError
    ReferenceError EvalError URIError AggregateError Map Set WeakMap WeakSet WeakRef Symbol RegExp BigInt Function
    parseInt parseFloat isNaN isFinite setTimeout setInterval clearTimeout clearInterval setImmediate
    clearImmediate queueMicrotask structuredClone fetch require module exports process Buffer __dirname
    __filename globalThis global window self document navigator location history localStorage sessionStorage
    alert confirm prompt URL URLSearchParams TextEncoder TextDecoder AbortController AbortSignal Headers Request
    Response FormData Blob File FileReader Event EventTarget CustomEvent HTMLElement Element Node NodeList
    requestAnimationFrame cancelAnimationFrame performance crypto atob btoa encodeURIComponent
    decodeURIComponent encodeURI decodeURI escape unescape eval Intl Reflect Proxy ArrayBuffer SharedArrayBuffer
    DataView Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float32Array
    Float64Array BigInt64Array BigUint64Array Atomics WebAssembly WebSocket Worker XMLHttpRequest
    getComputedStyle matchMedia MutationObserver IntersectionObserver ResizeObserver Image Audio
    undefined NaN Infinity arguments describe it test expect beforeEach afterEach beforeAll afterAll jest vi
    suite setup teardown
    Partial Required Readonly Record Pick Omit Exclude Extract NonNullable ReturnType Parameters InstanceType
    Awaited PromiseLike Iterable Iterator AsyncIterable ArrayLike ReadonlyArray PropertyKey
    """.split()
)
# Methods of builtin types: an unknown receiver calling one of these is as likely an array, a
# string or a promise as the one workspace class that happens to define it.
BUILTIN_METHODS = frozenset(
    """
    push pop shift unshift slice splice map filter reduce reduceRight forEach find findIndex findLast some every
    includes indexOf lastIndexOf join concat sort reverse flat flatMap keys values entries get set has delete
    clear add then catch finally toString valueOf toJSON trim trimStart trimEnd split replace replaceAll match
    matchAll startsWith endsWith toLowerCase toUpperCase padStart padEnd charAt charCodeAt substring substr at
    fill emit on off once addListener removeListener addEventListener removeEventListener dispatchEvent send
    write end close pipe apply call bind next return throw json text log error warn info debug assign freeze
    from of isArray resolve reject all race allSettled stringify parse test exec now
    """.split()
)
