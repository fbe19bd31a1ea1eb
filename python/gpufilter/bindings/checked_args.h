/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef INCLUDED_GPUFILTER_BINDINGS_CHECKED_ARGS_H
#define INCLUDED_GPUFILTER_BINDINGS_CHECKED_ARGS_H

// Integer arguments arrive from Python as ints of any size. pybind11's own int
// conversion refuses one that does not fit the C++ parameter (10**12 for an int, -3
// for an unsigned) with a TypeError that lists the whole signature. Here every integer
// parameter (and list of integers) takes any Python object and is converted inside the
// call, where its name is known:
//   - not an integer (2.5, "8", None): TypeError "decimation: must be an integer, ..."
//   - negative for an unsigned parameter: ValueError "ntaps: must not be negative, ..."
//   - beyond the C++ type: OverflowError "batch_size: 1000000000000 is too large ..."
//   - a negative entry in a list of unsigned integers (indices): IndexError
// Real-number parameters likewise: an int too large for a double is an OverflowError,
// a string a TypeError, each naming the parameter. The block's make() then checks the
// value's meaning (>= 1, < numchans, finite, ...).
//
// Use: def_init(cls, &block::make, py::arg("decimation"), ...) instead of
// cls.def(py::init(&block::make), py::arg("decimation"), ...); likewise def_method and
// def_function. The names come from the py::arg list, written once.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <type_traits>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace gr {
namespace gpufilter {
namespace bindings {

namespace py = pybind11;

//! An integer argument as Python gave it, not yet converted.
struct integer {
    py::object value;
    static constexpr auto python_name = py::detail::const_name("int");
};

namespace detail {

inline std::string text_of(const py::handle& value)
{
    PyObject* s = PyObject_Str(value.ptr());
    if (!s) { // an int beyond Python's digit limit for str()
        PyErr_Clear();
        return "an integer too long to print";
    }
    return py::reinterpret_steal<py::str>(s).cast<std::string>();
}

} // namespace detail

//! The argument `name` as a T: an integer in T's range, else an exception naming it.
template <class T>
T to_int(const char* name, const integer& arg)
{
    static_assert(std::is_integral_v<T> && sizeof(T) < sizeof(long long));
    PyObject* index = PyNumber_Index(arg.value.ptr()); // int, numpy integer, bool
    if (!index) {
        PyErr_Clear();
        throw py::type_error(
            std::string(name) + ": must be an integer, got " +
            std::string(py::str(py::type::handle_of(arg.value).attr("__name__"))) + " " +
            detail::text_of(arg.value));
    }
    const auto number = py::reinterpret_steal<py::int_>(index);
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
    const auto lo = static_cast<long long>(std::numeric_limits<T>::min());
    const auto hi = static_cast<long long>(std::numeric_limits<T>::max());
    if (std::is_unsigned_v<T> && (overflow < 0 || (!overflow && x < 0)))
        throw std::invalid_argument(std::string(name) + ": must not be negative, got " +
                                    detail::text_of(number));
    if (overflow > 0 || x > hi)
        throw std::overflow_error(std::string(name) + ": " + detail::text_of(number) +
                                  " is too large (at most " + std::to_string(hi) + ")");
    if (overflow < 0 || x < lo)
        throw std::overflow_error(std::string(name) + ": " + detail::text_of(number) +
                                  " is too small (at least " + std::to_string(lo) + ")");
    return static_cast<T>(x);
}

//! A count (channels, a decimation, a filter size): >= 1.
inline unsigned int checked_count(const char* name, const integer& arg)
{
    const auto n = to_int<unsigned int>(name, arg);
    if (n < 1)
        throw std::invalid_argument(std::string(name) + ": must be >= 1, got 0");
    return n;
}

//! An index (a channel, say): >= 0; the block checks the upper bound.
inline unsigned int checked_index(const char* name, const integer& arg)
{
    return to_int<unsigned int>(name, arg);
}

// How each C++ parameter type is taken from Python: integers (and lists of them) as
// `integer`, converted with the parameter's name; everything else as pybind11 does.
template <class T, class = void>
struct param {
    using type = T;
    static T convert(const char*, T value) { return std::forward<T>(value); }
};

template <class T>
inline constexpr bool is_integer_v =
    std::is_integral_v<std::decay_t<T>> && !std::is_same_v<std::decay_t<T>, bool>;

template <class T>
struct param<T, std::enable_if_t<is_integer_v<T>>> {
    using type = integer;
    static std::decay_t<T> convert(const char* name, const integer& value)
    {
        return to_int<std::decay_t<T>>(name, value);
    }
};

//! A real-number argument as Python gave it, not yet converted.
struct real {
    py::object value;
    static constexpr auto python_name = py::detail::const_name("float");
};

//! The argument `name` as a double: any real number (an int too), else an exception
//! naming it (an int beyond a double: OverflowError). The block checks the range.
inline double to_real(const char* name, const real& arg)
{
    PyObject* number = PyNumber_Float(arg.value.ptr());
    if (!number) {
        const bool overflow = PyErr_ExceptionMatches(PyExc_OverflowError);
        PyErr_Clear();
        if (overflow)
            throw std::overflow_error(std::string(name) +
                                      ": too large for a floating-point number");
        throw py::type_error(
            std::string(name) + ": must be a number, got " +
            std::string(py::str(py::type::handle_of(arg.value).attr("__name__"))) + " " +
            detail::text_of(arg.value));
    }
    const double x = PyFloat_AsDouble(number);
    Py_DECREF(number);
    return x;
}

template <class T>
struct param<T, std::enable_if_t<std::is_floating_point_v<std::decay_t<T>>>> {
    using type = real;
    static std::decay_t<T> convert(const char* name, const real& value)
    {
        return static_cast<std::decay_t<T>>(to_real(name, value));
    }
};

template <class T>
struct is_integer_vector : std::false_type {
};
template <class I, class A>
struct is_integer_vector<std::vector<I, A>> : std::bool_constant<is_integer_v<I>> {
};

template <class T>
struct param<T, std::enable_if_t<is_integer_vector<std::decay_t<T>>::value>> {
    using type = std::vector<integer>;
    static std::decay_t<T> convert(const char* name, const std::vector<integer>& values)
    {
        using I = typename std::decay_t<T>::value_type;
        std::decay_t<T> out;
        out.reserve(values.size());
        for (std::size_t k = 0; k < values.size(); ++k) {
            try {
                out.push_back(to_int<I>(name, values[k]));
            } catch (const std::invalid_argument& e) {
                // A list of unsigned integers is a list of indices (channels): a
                // negative entry is out of range, as one past the end is.
                throw std::out_of_range(
                    std::string(name) + ": entry " + std::to_string(k) + " is " +
                    detail::text_of(values[k].value) + ", out of range (negative)");
            }
        }
        return out;
    }
};

namespace detail {

template <class... Extra>
std::vector<const char*> names_of(std::size_t count, const Extra&... extra)
{
    std::vector<const char*> names;
    auto add = [&names](const auto& e) {
        if constexpr (std::is_base_of_v<py::arg, std::decay_t<decltype(e)>>)
            names.push_back(e.name);
    };
    (add(extra), ...);
    if (names.size() != count)
        throw std::logic_error("bindings: " + std::to_string(count) + " parameters, " +
                               std::to_string(names.size()) + " py::arg names");
    return names;
}

//! f(converted arguments...), for parameters of types A...
template <class... A>
struct converter {
    template <class F, std::size_t... I, class... P>
    static decltype(auto) call(const F& f,
                               const std::vector<const char*>& names,
                               std::index_sequence<I...>,
                               P&&... p)
    {
        return f(param<A>::convert(names[I], std::forward<P>(p))...);
    }
};

} // namespace detail

//! cls.def(py::init(make), extra...) with make's integers converted by name.
template <class Cls, class R, class... A, class... Extra>
Cls& def_init(Cls& cls, R (*make)(A...), const Extra&... extra)
{
    const auto names = detail::names_of(sizeof...(A), extra...);
    return cls.def(py::init([make, names](typename param<A>::type... a) {
                       return detail::converter<A...>::call(
                           make, names, std::index_sequence_for<A...>{}, a...);
                   }),
                   extra...);
}

//! A captureless lambda as the factory (def_init(cls, +[](...) {...}, ...)).
template <class Cls, class F, class... Extra>
Cls& def_init_lambda(Cls& cls, F f, const Extra&... extra)
{
    return def_init(cls, +f, extra...);
}

//! cls.def(name, fn, extra...) for a member function, integers converted by name.
template <class Cls, class R, class C, class... A, class... Extra>
Cls& def_method(Cls& cls, const char* name, R (C::*fn)(A...), const Extra&... extra)
{
    const auto names = detail::names_of(sizeof...(A), extra...);
    return cls.def(
        name,
        [fn, names](C& self, typename param<A>::type... a) -> R {
            auto bound = [&self, fn](auto&&... v) -> R {
                return (self.*fn)(std::forward<decltype(v)>(v)...);
            };
            return detail::converter<A...>::call(
                bound, names, std::index_sequence_for<A...>{}, a...);
        },
        extra...);
}

//! m.def(name, fn, extra...) for a free function, integers converted by name.
template <class R, class... A, class... Extra>
void def_function(py::module& m, const char* name, R (*fn)(A...), const Extra&... extra)
{
    const auto names = detail::names_of(sizeof...(A), extra...);
    m.def(
        name,
        [fn, names](typename param<A>::type... a) -> R {
            return detail::converter<A...>::call(
                fn, names, std::index_sequence_for<A...>{}, a...);
        },
        extra...);
}

} // namespace bindings
} // namespace gpufilter
} // namespace gr

namespace pybind11 {
namespace detail {

//! Any Python object loads into T (integer, real); to_int() and to_real() convert it
//! in the call, by the parameter's name.
template <class T>
struct any_object_caster {
    PYBIND11_TYPE_CASTER(T, T::python_name);
    bool load(handle src, bool)
    {
        if (!src)
            return false;
        value.value = reinterpret_borrow<object>(src);
        return true;
    }
    static handle cast(const T& v, return_value_policy, handle)
    {
        return v.value.inc_ref();
    }
};

template <>
struct type_caster<gr::gpufilter::bindings::integer>
    : any_object_caster<gr::gpufilter::bindings::integer> {
};
template <>
struct type_caster<gr::gpufilter::bindings::real>
    : any_object_caster<gr::gpufilter::bindings::real> {
};

} // namespace detail
} // namespace pybind11

#endif /* INCLUDED_GPUFILTER_BINDINGS_CHECKED_ARGS_H */
