# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 1000,1312 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'kernel_ridge: device=cpu' at screen 0.01, screen 0.0274 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0107 left font ',12'
set key above maxcols 1 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('800' 800, '3200' 3200)
set logscale x
set logscale y
$line0 << EOD
800 0.07846786300000001 0.07436873000000001 0.08160436
3200 2.869141514 2.8690377049999998 2.869986888
EOD
$line1 << EOD
800 0.024235153 0.017175885000000002 0.031251548
3200 0.924179431 0.9235468609999999 0.928407188
EOD
$line2 << EOD
800 0.008267090999999999 0.00397823 0.015810456
3200 0.25158795700000003 0.250357148 0.259299845
EOD
$line3 << EOD
800 0.038429861999999995 0.034071935 0.04194209
3200 1.178902747 1.178304557 1.183085283
EOD
$line4 << EOD
800 0.008328582 0.004105864 0.015571048
3200 0.24757057799999999 0.245289637 0.252411079
EOD
$line5 << EOD
800 0.034503547 0.026187975 0.041956108
3200 0.74934715 0.749089091 0.750220302
EOD
$line6 << EOD
800 0.008113669 0.003925776000000001 0.01156926
3200 0.24622160199999998 0.24408359599999999 0.261265557
EOD
$line7 << EOD
800 0.023871667000000003 0.018995679 0.033769114
3200 1.0304034340000001 1.029592444 1.034361436
EOD
$line8 << EOD
800 0.007976551 0.003806369 0.011339503
3200 0.255204798 0.250438319 0.259415355
EOD
$line9 << EOD
800 0.025487641000000002 0.017356964 0.035313892
3200 0.8415647369999999 0.841374765 0.8423328699999999
EOD
$line10 << EOD
800 0.008098016 0.003947429 0.011910579
3200 0.242096076 0.24144213999999997 0.243407482
EOD
$line11 << EOD
800 0.0572846955 0.044438144 0.06926414900000001
3200 0.69014205 0.690113408 0.691093787
EOD
$line12 << EOD
800 0.008214927 0.003982874 0.015539196
3200 0.24202338299999998 0.24170881 0.24391332799999998
EOD
$line13 << EOD
800 0.029022950999999998 0.018065896999999997 0.032897929000000006
3200 0.5774972899999999 0.577442432 0.578356138
EOD
$line14 << EOD
800 0.022032931 0.009706414 0.027779766
3200 0.446169226 0.446129022 0.447071899
EOD
$line15 << EOD
800 0.008304722 0.003959694 0.015484860999999999
3200 0.238795716 0.238522985 0.239900273
EOD
$line16 << EOD
800 0.024241188000000004 0.019998027 0.03620393
3200 0.44113073 0.44110534900000004 0.44176702700000003
EOD
$line17 << EOD
800 0.0218972705 0.013694583 0.025990302
3200 0.417307658 0.417177955 0.41820486
EOD
$line18 << EOD
800 0.008247530999999999 0.0039642869999999995 0.015619699
3200 0.241686164 0.241020457 0.24266133299999998
EOD
$line19 << EOD
800 0.025236170999999998 0.019432519000000002 0.031586248
3200 0.49134164499999994 0.49122674699999996 0.49226009499999995
EOD
$line20 << EOD
800 0.013406267999999999 0.009110558 0.017877914999999998
3200 0.444476624 0.444411778 0.445332756
EOD
$line21 << EOD
800 0.008042269999999999 0.003848719 0.015347849
3200 0.242355023 0.24167368399999997 0.243436765
EOD
$line22 << EOD
800 0.014732398499999999 0.01038322 0.019213180000000003
3200 0.448110015 0.44807996199999994 0.4491210179999999
EOD
$line23 << EOD
800 0.012416605999999998 0.008204942 0.015928421
3200 0.420610347 0.420522515 0.421235879
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=1e-10, precision=double', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=1e-10, precision=mixed', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=1e-09, precision=double', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=1e-09, precision=mixed', \
     $line4 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=1e-08, precision=double', \
     $line5 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=1e-08, precision=mixed', \
     $line6 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=1e-07, precision=double', \
     $line7 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=1e-07, precision=mixed', \
     $line8 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=1e-06, precision=double', \
     $line9 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=1e-06, precision=mixed', \
     $line10 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=1e-05, precision=double', \
     $line11 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=1e-05, precision=mixed', \
     $line12 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=0.0001, precision=double', \
     $line13 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=0.0001, precision=mixed', \
     $line14 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=0.0001, precision=single', \
     $line15 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=0.001, precision=double', \
     $line16 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge (dual) lambda=0.001, precision=mixed', \
     $line17 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual) lambda=0.001, precision=single', \
     $line18 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#009E73' title 'kernel_ridge (dual) lambda=0.01, precision=double', \
     $line19 using 1:2:3:4 with yerrorlines lw 1.5 pt 12 ps 0.8 dashtype 2 lc rgb '#CC79A7' title 'kernel_ridge (dual) lambda=0.01, precision=mixed', \
     $line20 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#E69F00' title 'kernel_ridge (dual) lambda=0.01, precision=single', \
     $line21 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#56B4E9' title 'kernel_ridge (dual) lambda=0.1, precision=double', \
     $line22 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 2 lc rgb '#000000' title 'kernel_ridge (dual) lambda=0.1, precision=mixed', \
     $line23 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 2 lc rgb '#F0E442' title 'kernel_ridge (dual) lambda=0.1, precision=single'
