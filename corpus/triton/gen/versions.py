"""Prints the versions and APIs the corpus generators rely on (run on the GPU machine)."""
import json
import torch
import triton
import triton.language as tl

info = {
    "torch": torch.__version__,
    "torch_cuda": torch.version.cuda,
    "triton": triton.__version__,
    "gpu": torch.cuda.get_device_name(0),
    "capability": list(torch.cuda.get_device_capability(0)),
    "sms": torch.cuda.get_device_properties(0).multi_processor_count,
    "tl.make_tensor_descriptor": hasattr(tl, "make_tensor_descriptor"),
    "tl.topk": hasattr(tl, "topk"),
    "tl.histogram": hasattr(tl, "histogram"),
    "triton.set_allocator": hasattr(triton, "set_allocator"),
}
try:
    from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: F401
    info["TensorDescriptor"] = True
except Exception as e:  # noqa: BLE001
    info["TensorDescriptor"] = repr(e)
try:
    from triton.experimental import gluon  # noqa: F401
    info["gluon"] = True
except Exception as e:  # noqa: BLE001
    info["gluon"] = repr(e)
try:
    import inspect
    info["tl.range params"] = list(inspect.signature(tl.range.__init__).parameters)
except Exception as e:  # noqa: BLE001
    info["tl.range params"] = repr(e)
try:
    from torch.nn.attention.flex_attention import flex_attention  # noqa: F401
    info["flex_attention"] = True
except Exception as e:  # noqa: BLE001
    info["flex_attention"] = repr(e)
try:
    from triton.backends.nvidia.compiler import get_ptxas
    p = get_ptxas()
    info["triton_ptxas"] = [p.path, p.version] if hasattr(p, "path") else repr(p)
except Exception as e:  # noqa: BLE001
    info["triton_ptxas"] = repr(e)
print(json.dumps(info, indent=1))
