/* lz4gate kshim: symbol exports emit nothing. Each expands to a
 * redeclaration of the symbol, so the trailing ';' stays a valid
 * file-scope declaration. */
#ifndef LZ4GATE_KSHIM_EXPORT_H
#define LZ4GATE_KSHIM_EXPORT_H

#define EXPORT_SYMBOL(sym)            extern __typeof__(sym) sym
#define EXPORT_SYMBOL_GPL(sym)        extern __typeof__(sym) sym
#define EXPORT_SYMBOL_NS(sym, ns)     extern __typeof__(sym) sym
#define EXPORT_SYMBOL_NS_GPL(sym, ns) extern __typeof__(sym) sym

#endif
