"""Prints, as JSON, what the GPU machine has: torch, triton, CUDA, the GPU, Triton's ptxas."""
import json
import subprocess

import torch
import triton

v = {"torch": torch.__version__, "torch_cuda": torch.version.cuda, "triton": triton.__version__,
     "gpu": torch.cuda.get_device_name(0), "capability": list(torch.cuda.get_device_capability(0)),
     "sms": torch.cuda.get_device_properties(0).multi_processor_count}
try:
    from triton.backends.nvidia.compiler import get_ptxas
    try:
        p = get_ptxas()
    except TypeError:
        p = get_ptxas(90)
    path = getattr(p, "path", p[0] if isinstance(p, tuple) else str(p))
    v["triton_ptxas"] = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
except Exception as e:  # noqa: BLE001
    v["triton_ptxas"] = repr(e)
try:
    v["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                 capture_output=True, text=True).stdout.strip()
except Exception as e:  # noqa: BLE001
    v["driver"] = repr(e)
print(json.dumps(v, indent=1))
