#!/usr/bin/env python3
"""Offline diagnostic: the activity classifier's window features that tell a person at rest from
a vehicle (docs/activity-classifier.md, "A person at rest, and what tells it from a vehicle"),
recomputed in numpy for 4 s windows every 0.4 s and summarised per set as 10th percentile /
median / 90th percentile: calm motion, motion, floor, tilt, jerk, vibration share (`hb`, what
ActivityFeatures.vibrationShare computes), vertical, horizontal. The sets: the Bangle drive and
train, the ST drive and bicycle ride, the Bangle static and ST stationary pieces with the
person-at-rest sway of PersonAtRestTransform (a copy) at 0, 0.2, 0.35, 0.5 m/s², and HAPT's
sitting and standing runs (first 20 files). A re-implementation for inspection only; needs numpy.

    python3 scripts/rest-features.py [DATASETS_DIR]
"""
import csv, glob, math, sys
import numpy as np

d = sys.argv[1] if len(sys.argv) > 1 else '../shared/datasets'
def load(p):
    rows=list(csv.DictReader(open(p)))
    t=np.array([float(r['time_s']) for r in rows]); a=np.array([[float(r['accel_x']),float(r['accel_y']),float(r['accel_z'])] for r in rows])
    return t,a,[r.get('label','') for r in rows]
def grid(t,a):
    k=np.floor(t/0.04).astype(int); ks=np.arange(k[0],k[-1]+1); out=np.zeros((len(ks),3))
    for c in range(3):
        s=np.bincount(k-k[0],weights=a[:,c]); n=np.bincount(k-k[0]); m=n>0
        out[:,c]=np.interp(ks,ks[m],s[m]/n[m])
    return ks,out
tones=[(0.23,1.0,0.4),(0.61,0.7,2.1),(1.07,0.5,4.0),(1.7,0.3,5.3)]
def sway(t):
    v=np.zeros((len(t),3))
    for k,(f,A,ph) in enumerate(tones):
        s=A*np.sin(2*np.pi*f*t+ph); u=0.05*t+k*1.3
        v+=np.stack([s*np.cos(u),s*np.sin(u)*0.8,s*(0.6+0.4*np.sin(0.5*u))],1)
    ph=np.mod(t,7.3); p=np.where(ph<1,1.5*np.sin(2*np.pi*ph),0)
    v+=np.stack([0.6*p,-0.5*p,0.6*p],1); return v
def atrest(t,a,level):
    lo,hi=0.0,1.0
    f=lambda sc: np.linalg.norm(a+sway(t)*sc,axis=1).std()
    while f(hi)<level and hi<64: hi*=2
    for _ in range(12):
        mid=(lo+hi)/2
        if f(mid)<level: lo=mid
        else: hi=mid
    return a+sway(t)*(lo+hi)/2
def feats(A):
    out=[]
    for end in range(100,len(A)+1,10):
        w=A[end-100:end]; mu=w.mean(0); g=np.linalg.norm(mu); u=mu/g
        m=np.linalg.norm(w,axis=1); sm=np.convolve(m,[.25,.5,.25],'valid')
        q=[m[i*25:(i+1)*25].std() for i in range(4)]
        tilt=max(math.degrees(math.acos(min(1,np.dot(w[i*25:(i+1)*25].mean(0),u)/np.linalg.norm(w[i*25:(i+1)*25].mean(0))))) for i in range(4))
        mm=m-m.mean(); sd=mm.std()
        jerk=np.diff(mm).std()/sd if sd>1e-9 else 0
        # high band: |a| minus 0.5 s moving average (>~2 Hz)
        lp=np.convolve(m,np.ones(13)/13,'same'); hb=(m-lp)[6:-6].std()/sd if sd>1e-9 else 0
        hv=w-mu; hor=np.sqrt(((hv-np.outer(hv@u,u))**2).sum(1)).mean()
        out.append(dict(calm=sm.std(),motion=sd,floor=min(q),tilt=tilt,jerk=jerk,hb=hb,vert=(hv@u).std(),hor=hor))
    return out
def summ(name,ws):
    keys=['calm','motion','floor','tilt','jerk','hb','vert','hor']
    print(name.ljust(26)+str(len(ws)).ljust(6)+' '.join(('%.2f/%.2f/%.2f'%(np.percentile([o[k] for o in ws],10),np.median([o[k] for o in ws]),np.percentile([o[k] for o in ws],90))).ljust(16) for k in keys))
print('set'.ljust(26)+'n     '+' '.join(k.ljust(16) for k in ['calm','motion','floor','tilt','jerk','hb','vert','hor']))
for name,p in [('Bangle drive',d+'/steps/bangle/0_HughB-drive-36min-0.csv'),('Bangle train',d+'/steps/bangle/0_HughB_train_journey_b31.csv'),('ST driving',d+'/activity/st/mobile_driving.csv'),('ST biking',d+'/activity/st/mobile_biking.csv')]:
    t,a,_=load(p); ks,A=grid(t,a); summ(name,feats(A))
for name,p in [('Bangle static',d+'/steps/bangle/0_HughB-static.csv'),('ST stationary',d+'/activity/st/mobile_stationary.csv')]:
    t,a,_=load(p)
    for lv in [0,0.2,0.35,0.5]:
        aa=a if lv==0 else atrest(t,a,lv); ks,A=grid(t,aa); summ(name+' %.2f'%lv,feats(A))
# HAPT real rest
ws=[]
for f in sorted(glob.glob(d+'/activity/hapt/*.csv'))[:20]:
    t,a,lab=load(f); ks,A=grid(t,a)
    labs=np.array(lab); k=np.floor(t/0.04).astype(int)-int(math.floor(t[0]/0.04))
    gl=np.array(['']*len(A),dtype=object); gl[k]=labs
    for lbl in ['sitting','standing']:
        idx=np.where(gl==lbl)[0]
        # contiguous runs
        if len(idx)==0: continue
        runs=np.split(idx,np.where(np.diff(idx)>1)[0]+1)
        for r in runs:
            if len(r)>=100: ws+=feats(A[r[0]:r[-1]+1])
summ('HAPT sit/stand',ws)
